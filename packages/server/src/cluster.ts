import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { checkSeveralProcesses, ConfigError, loadConfig } from './config.js';
import { StartError } from './lib/start-error.js';
import { createDatabase, poolSizeFor } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';

/** Longer than a worker's own drain (main.ts), so a worker that cannot finish is the one that says so. */
const DRAIN_MS = 12_000;
const MAX_WORKERS = 256;

/**
 * `npm run start:cluster`: migrates once, then forks WORKERS server processes (main.ts) that share
 * one port. A worker that dies after it listened is replaced; one that dies before (port taken,
 * database unreachable) stops them all, since its replacement would fail the same way.
 * SIGTERM/SIGINT drain every worker, then the primary exits with 0 if they all did.
 */
async function primary(): Promise<void> {
  const workers = workerCount(process.env.WORKERS);
  const config = loadConfig(process.env);
  checkSeveralProcesses(config);
  const database = createDatabase(config.databaseUrl, { poolSize: 1 });
  await migrateToLatest(database);
  await database.destroy();

  // The machine's connections shared out, unless set: N processes each sized for the whole machine would overrun PostgreSQL.
  const poolSize = String(
    config.databasePoolSize ?? Math.max(2, Math.ceil(poolSizeFor(availableParallelism()) / workers)),
  );
  cluster.setupPrimary({ exec: fileURLToPath(new URL(`./main${extension()}`, import.meta.url)), args: [] });
  const listening = new Set<Worker>();
  const running = () => Object.keys(cluster.workers ?? {}).length;
  const fork = () => {
    const worker = cluster.fork({ DATABASE_POOL_SIZE: poolSize });
    console.log(`worker ${worker.process.pid} started`);
  };
  let exitCode: number | undefined;

  const stop = (code: number) => {
    if (exitCode !== undefined) return;
    exitCode = code;
    setTimeout(() => {
      console.error(`workers still draining after ${DRAIN_MS / 1000} s, exiting`);
      process.exit(1);
    }, DRAIN_MS).unref();
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    if (running() === 0) process.exit(exitCode);
  };

  cluster.on('listening', (worker) => listening.add(worker));
  cluster.on('exit', (worker, code, signal) => {
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (exitCode !== undefined) {
      if (code !== 0) exitCode = 1;
      if (running() === 0) process.exit(exitCode);
    } else if (!listening.has(worker)) {
      console.error(`a worker exited with ${how} before it listened; stopping`);
      stop(1);
    } else {
      listening.delete(worker);
      console.error(`worker ${worker.process.pid} exited with ${how}; starting another`);
      fork();
    }
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(0));
  for (let i = 0; i < workers; i++) fork();
  console.log(`Howl cluster: ${workers} workers (database pool ${poolSize} each)`);
}

/** WORKERS, or one per core the machine offers. */
function workerCount(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return availableParallelism();
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_WORKERS) {
    throw new ConfigError([`WORKERS must be a whole number from 1 to ${MAX_WORKERS} (got ${JSON.stringify(value)})`]);
  }
  return n;
}

/** `.ts` when run from source (tsx), `.js` once built: the workers run what the primary runs. */
function extension(): string {
  return import.meta.url.endsWith('.ts') ? '.ts' : '.js';
}

primary().catch((err: unknown) => {
  console.error(err instanceof StartError ? err.message : err);
  process.exit(1);
});
