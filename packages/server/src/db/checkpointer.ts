import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// Runs in its own thread with its own connection: a checkpoint copies the WAL into the database
// file, which takes a while after many writes, and better-sqlite3 is synchronous.
const WORKER = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
setInterval(() => {
  try {
    // PASSIVE never waits for readers or writers; a large WAL is truncated once nobody holds it.
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    if (result && result.log > 16384) db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {}
}, workerData.everyMs);
`;

/**
 * Takes WAL checkpoints off the request path: the connection that serves requests has automatic
 * checkpoints turned off (`wal_autocheckpoint = 0`), and this thread checkpoints every `everyMs`.
 */
export function startCheckpointer(file: string, everyMs = 1000): { stop(): Promise<void> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, everyMs } });
  worker.unref();
  return {
    async stop() {
      await worker.terminate();
    },
  };
}
