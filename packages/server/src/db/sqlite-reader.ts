import type { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';
import { startSqliteThread } from './sqlite-thread.js';

// Its own read-only connection in its own thread: better-sqlite3 runs a statement synchronously, so
// a long read on the serving thread would hold every request while it runs.
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const reason = (error) => String((error && error.message) || error);
let db;
try {
  db = new Database(workerData.file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
} catch (error) {
  // The thread ends: what it owes fails with this, and the next read starts another thread.
  parentPort.postMessage({ unopened: reason(error) });
  process.exit(1);
}
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    parentPort.postMessage({ id, rows: db.prepare(sql).raw(true).all(...parameters) });
  } catch (error) {
    parentPort.postMessage({ id, error: reason(error) });
  }
});
`;

type Waiting = { resolve(rows: unknown[][]): void; reject(error: Error): void };
type Answer = { id: number; rows?: unknown[][]; error?: string; unopened?: string };

/** A started thread, the reads it owes, and the timer that ends it once idle. */
type Thread = { worker: Worker; waiting: Map<number, Waiting>; idle?: NodeJS.Timeout };

/**
 * Runs reads of a SQLite file in a thread of its own, one at a time in the order asked, each in a
 * read transaction of its own, and answers their rows as arrays. The rows are copied between
 * threads, which costs about as much per row as reading it: it pays for reads that answer few rows
 * of large values (a load's chunk as JSON columns), not for many small rows. The thread starts on
 * the first read, keeps the process alive only while a read is under way, and ends once it has
 * been idle for `idleMs` (its memory, about 10 MB, is not kept for loads that seldom come).
 */
export function sqliteReader(
  file: string,
  idleMs = 10_000,
): { rows(query: CompiledQuery): Promise<unknown[][]>; close(): Promise<void> } {
  let current: Thread | undefined;
  let nextId = 0;

  function start(): Thread {
    const worker = startSqliteThread(WORKER, { file });
    const thread: Thread = { worker, waiting: new Map() };
    // A thread that ended (it could not open the file, it crashed, it was closed) fails what it
    // owed; the next read starts another.
    const fail = (error: Error) => {
      if (current === thread) current = undefined;
      clearTimeout(thread.idle);
      for (const read of thread.waiting.values()) read.reject(error);
      thread.waiting.clear();
    };
    worker.on('message', (answer: Answer) => {
      if (answer.unopened !== undefined) return fail(new Error(answer.unopened));
      const read = thread.waiting.get(answer.id);
      if (!read) return;
      thread.waiting.delete(answer.id);
      if (thread.waiting.size === 0) idle(thread);
      if (answer.error !== undefined) read.reject(new Error(answer.error));
      else read.resolve(answer.rows!);
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the reading thread ended (${code})`)));
    return thread;
  }

  /** Owes nothing: no longer keeps the process alive, and ends unless a read comes within `idleMs`. */
  function idle(thread: Thread): void {
    thread.worker.unref();
    clearTimeout(thread.idle);
    thread.idle = setTimeout(() => void close(thread), idleMs).unref();
  }

  async function close(thread = current): Promise<void> {
    if (!thread) return;
    if (thread === current) current = undefined;
    clearTimeout(thread.idle);
    await thread.worker.terminate();
  }

  return {
    async rows(query) {
      const thread = (current ??= start());
      clearTimeout(thread.idle);
      const id = nextId++;
      const reading = new Promise<unknown[][]>((resolve, reject) => thread.waiting.set(id, { resolve, reject }));
      thread.worker.ref();
      try {
        thread.worker.postMessage({ id, sql: query.sql, parameters: query.parameters });
      } catch (error) {
        // A parameter that cannot be copied to the thread: nothing was sent, so nothing is owed.
        thread.waiting.delete(id);
        if (thread.waiting.size === 0) idle(thread);
        throw error;
      }
      return reading;
    },
    close: () => close(),
  };
}
