import { startSqliteThread } from './sqlite-thread.js';

// Runs in its own thread with its own connection: a checkpoint copies the WAL into the database
// file, which takes a while after many writes, and better-sqlite3 is synchronous.
const WORKER = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
setInterval(() => {
  try {
    // PASSIVE only: it never takes the write lock, so the serving thread never waits in BEGIN on it.
    // The WAL file is kept small by the serving connection instead (journal_size_limit, database.ts).
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {}
}, workerData.everyMs);
`;

/**
 * Takes WAL checkpoints off the request path: the connection that serves requests has automatic
 * checkpoints turned off (`wal_autocheckpoint = 0`), and this thread copies the WAL into the
 * database every `everyMs` without ever holding writers off. Once all of it is copied, the next
 * write starts the WAL over from its beginning, cut down to the serving connection's
 * `journal_size_limit`. (A TRUNCATE checkpoint here held the write lock for about 100 ms every few
 * seconds under load, and better-sqlite3 waits for a lock on the event loop.)
 */
export function startCheckpointer(file: string, everyMs = 1000): { stop(): Promise<void> } {
  const worker = startSqliteThread(WORKER, { file, everyMs });
  worker.unref();
  return {
    async stop() {
      await worker.terminate();
    },
  };
}
