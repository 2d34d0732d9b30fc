import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';

// Its own read-only connection in its own thread: better-sqlite3 runs a statement synchronously, so
// a long read on the serving thread would hold every request while it runs.
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
let unopened;
try {
  db = new Database(workerData.file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
} catch (error) {
  unopened = String((error && error.message) || error);
}
parentPort.on('message', ({ id, sql, parameters }) => {
  if (unopened !== undefined) return parentPort.postMessage({ id, error: unopened });
  try {
    parentPort.postMessage({ id, rows: db.prepare(sql).raw(true).all(...parameters) });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

type Waiting = { resolve(rows: unknown[][]): void; reject(error: Error): void };

/** A started thread and the reads it owes. */
type Thread = { worker: Worker; waiting: Map<number, Waiting> };

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
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  let current: Thread | undefined;
  let idle: NodeJS.Timeout | undefined;
  let nextId = 0;

  function start(): Thread {
    const thread: Thread = {
      worker: new Worker(WORKER, { eval: true, workerData: { file, driver } }),
      waiting: new Map(),
    };
    const { worker, waiting } = thread;
    worker.on('message', (message: { id: number; rows?: unknown[][]; error?: string }) => {
      const read = waiting.get(message.id);
      if (!read) return;
      waiting.delete(message.id);
      if (waiting.size === 0) {
        worker.unref();
        idle = setTimeout(() => void close(thread), idleMs).unref();
      }
      if (message.error !== undefined) read.reject(new Error(message.error));
      else read.resolve(message.rows!);
    });
    // A thread that failed (the file could not be opened) or ended fails what it owed; the next read starts another.
    const fail = (error: Error) => {
      if (current === thread) current = undefined;
      for (const read of waiting.values()) read.reject(error);
      waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the reading thread ended (${code})`)));
    return thread;
  }

  async function close(thread = current): Promise<void> {
    if (thread === current) current = undefined;
    clearTimeout(idle);
    await thread?.worker.terminate();
  }

  return {
    rows(query) {
      clearTimeout(idle);
      const thread = (current ??= start());
      const id = nextId++;
      const reading = new Promise<unknown[][]>((resolve, reject) => thread.waiting.set(id, { resolve, reject }));
      thread.worker.ref();
      thread.worker.postMessage({ id, sql: query.sql, parameters: query.parameters });
      return reading;
    },
    close: () => close(),
  };
}
