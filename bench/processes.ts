/** The processes and stores a bench runs against: the compiled server, PostgreSQL, Redis, a SQLite file. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createDatabase, type Database } from '../packages/server/src/db/database.js';
import { SERVER_ENV } from './seed.js';

export const ROOT = new URL('..', import.meta.url).pathname;
export const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.BENCH_DATABASE_URL;
export const redisUrl = process.env.TEST_REDIS_URL ?? process.env.BENCH_REDIS_URL;

/** Starts a process and resolves once its output matches `ready`. */
export function start(
  command: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  ipc = false,
): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const stdio = ipc ? (['ignore', 'pipe', 'pipe', 'ipc'] as const) : (['ignore', 'pipe', 'pipe'] as const);
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: [...stdio] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start:\n${out}`)), 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const match = out.match(ready);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
  });
}

/** A process's resident memory, in bytes. */
export const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
/** A fresh store for `backend` (sqlite, postgres, redis: PostgreSQL with the Redis rank index), and the server's env for it. */
export async function openBackend(
  backend: string,
): Promise<{ url: string; env: Record<string, string>; database: Database; cleanup(): Promise<void> }> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'howl-bench-'));
    const url = `sqlite:${join(dir, 'bench.db')}`;
    const database = createDatabase(url);
    return {
      url,
      env: { RANK_INDEX: 'memory' },
      database,
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = `howl_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const url = `${pgUrl}${pgUrl!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const database = createDatabase(pgUrl!, { schema });
  const env: Record<string, string> =
    backend === 'redis' ? { RANK_INDEX: 'redis', REDIS_URL: redisUrl! } : { RANK_INDEX: 'memory' };
  return {
    url,
    env,
    database,
    cleanup: async () => {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

/**
 * The compiled server (`node packages/server/dist/main.js`, what `npm start` runs), node itself so
 * its RSS is the server's, with the bench's memory probe (settledRss) loaded beside it.
 */
export async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const { child, match } = await start(
    process.execPath,
    ['--expose-gc', '--require', './bench/memory-probe.cjs', 'packages/server/dist/main.js'],
    { ...env, ...SERVER_ENV },
    /listening on (http:\/\/localhost:\d+)/,
    true,
  );
  return { child, base: match[1]! };
}

/** A server's resident memory, in bytes, right after a full collection (bench/memory-probe.cjs). */
export function settledRss(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not answer the memory probe')), 30_000);
    child.once('message', (answer: { rss: number }) => {
      clearTimeout(timer);
      resolve(answer.rss);
    });
    child.send('settle');
  });
}

/** Stops a server started here and waits for it to go. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Removes what the server left in Redis for a bench game: its boards' sorted sets, under the rank
 * index's default prefix, tens of MB for a board of 10^6 entries.
 */
export async function forgetRanks(gameId: string): Promise<void> {
  const redis = new Redis(redisUrl!);
  try {
    for await (const keys of redis.scanStream({ match: `howl:rank:{${gameId}-*`, count: 1000 }) as AsyncIterable<
      string[]
    >) {
      if (keys.length > 0) await redis.unlink(...keys);
    }
  } finally {
    redis.disconnect();
  }
}
