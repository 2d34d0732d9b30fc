import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * Starts a thread that runs `code` (plain CommonJS) with a connection of its own to a SQLite file:
 * the code finds `better-sqlite3` at `workerData.driver`, and the rest of `data` beside it. The
 * thread takes none of this process's flags (a loader, `--input-type=module`), which would change
 * how its code runs.
 */
export function startSqliteThread(code: string, data: Record<string, unknown>): Worker {
  return new Worker(code, { eval: true, execArgv: [], workerData: { ...data, driver } });
}
