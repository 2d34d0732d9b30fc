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
    // PASSIVE never waits for readers or writers. TRUNCATE holds off every writer while it runs
    // (the server's event loop waits in BEGIN), so a large WAL is truncated only once PASSIVE has
    // copied all of it, when truncating is only a reset.
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    if (result && result.log > workerData.truncateFrames && result.checkpointed === result.log) db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {}
}, workerData.everyMs);
`;

/**
 * Takes WAL checkpoints off the request path: the connection that serves requests has automatic
 * checkpoints turned off (`wal_autocheckpoint = 0`), and this thread checkpoints every `everyMs`,
 * truncating the WAL file once it has grown past `truncateFrames` pages and all of it is copied.
 */
export function startCheckpointer(file: string, everyMs = 1000, truncateFrames = 16384): { stop(): Promise<void> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, everyMs, truncateFrames } });
  worker.unref();
  return {
    async stop() {
      await worker.terminate();
    },
  };
}
