import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { connectRedis, type RedisClient } from '../../src/lib/redis.js';
import { REDIS_SKIP, services } from './services.js';

const run = promisify(execFile);
const onPath = (name: string) => (process.env.PATH ?? '').split(delimiter).some((d) => existsSync(join(d, name)));

/** Why the Redis Cluster suites are skipped here, if they are (they need redis-server and redis-cli to start one). */
export const CLUSTER_SKIP: string | false =
  REDIS_SKIP || (onPath('redis-server') && onPath('redis-cli') ? false : 'redis-server or redis-cli is not installed');

if (services.required && CLUSTER_SKIP) {
  throw new Error(`REQUIRE_SERVICES=1 but the Redis Cluster suites cannot run: ${CLUSTER_SKIP}`);
}

export interface TestRedisCluster {
  /** The masters' URLs, as REDIS_CLUSTER_NODES takes them. */
  nodes: string[];
  /** A new client of the cluster, ready; the caller quits it. */
  connect(): Promise<RedisClient>;
  stop(): Promise<void>;
}

/** A port free for Redis and for its cluster bus (the port + 10000). */
async function freePort(): Promise<number> {
  const listenOn = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const { port: got } = server.address() as { port: number };
        server.close(() => resolve(got));
      });
    });
  for (;;) {
    const port = await listenOn(0);
    if (port > 55_000) continue;
    if (
      await listenOn(port + 10_000).then(
        () => true,
        () => false,
      )
    )
      return port;
  }
}

/** How long one try at starting the cluster may take before it is given up and started again on other ports. */
const TRY_MS = 20_000;
const TRIES = 3;

/** The promise, or a rejection naming what did not happen once the try's deadline passes. */
function byDeadline<T>(deadline: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} (no answer in time)`)), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Checks until the check holds; an error is "not yet", and `gaveUp` rejecting ends the wait at once. */
async function waitFor(
  deadline: number,
  what: string,
  check: () => Promise<boolean>,
  gaveUp: Promise<never>,
): Promise<void> {
  while (Date.now() < deadline) {
    if (await Promise.race([byDeadline(deadline, what, check()).catch(() => false), gaveUp])) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(what);
}

/** The last lines of each node's log, to say why a try failed. */
function logTails(dir: string, ports: number[]): string {
  return ports
    .map((port) => {
      const file = join(dir, `redis-${port}.log`);
      const tail = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').slice(-3).join(' | ') : 'no log';
      return `${port}: ${tail}`;
    })
    .join('; ');
}

/**
 * Three masters (no replicas) on free ports, their files in a temporary folder; `stop` ends only these
 * processes. A port found free may be taken before its node binds it (other suites start servers at the
 * same time), so each try is bounded and a failed one starts again on other ports.
 */
export async function startRedisCluster(): Promise<TestRedisCluster> {
  const failures: string[] = [];
  for (let i = 0; i < TRIES; i++) {
    try {
      return await startRedisClusterOnce();
    } catch (err) {
      failures.push((err as Error).message);
    }
  }
  throw new Error(`the test Redis Cluster did not come up in ${TRIES} tries: ${failures.join(' / ')}`);
}

async function startRedisClusterOnce(): Promise<TestRedisCluster> {
  const deadline = Date.now() + TRY_MS;
  const ports: number[] = [];
  for (let i = 0; i < 3; i++) ports.push(await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'howl-redis-cluster-'));
  let exited: string | undefined;
  let nodeExited: (why: Error) => void = () => {};
  // A node that exits (its port was taken, say) ends the try at once, not at its deadline.
  const gaveUp = new Promise<never>((_, reject) => (nodeExited = reject));
  gaveUp.catch(() => {});
  const servers: ChildProcess[] = ports.map((port) => {
    const child = spawn(
      'redis-server',
      [
        ...['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes'],
        ...['--logfile', `redis-${port}.log`],
        ...['--cluster-config-file', `nodes-${port}.conf`, '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      ],
      { cwd: dir, stdio: 'ignore' },
    );
    child.once('exit', (code, signal) => {
      exited ??= `the node on ${port} exited (${signal ?? code})`;
      nodeExited(new Error(exited));
    });
    return child;
  });
  const stop = async () => {
    await Promise.all(
      servers.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            // A node that does not stop on SIGTERM in 2 s is killed: a stuck one must not hold the next try.
            const kill = setTimeout(() => child.kill('SIGKILL'), 2_000);
            child.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  const probes = ports.map(
    (port) => new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => 50 }),
  );
  // A probe refused before its node listens retries; its errors are expected until then.
  for (const probe of probes) probe.on('error', () => {});
  try {
    for (const probe of probes) {
      await waitFor(deadline, 'a node answers PING', async () => (await probe.ping()) === 'PONG', gaveUp);
    }
    await run(
      'redis-cli',
      ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'],
      { timeout: Math.max(1, deadline - Date.now()) },
    ).catch((err: Error & { killed?: boolean }) => {
      const why = err.killed ? 'timed out' : err.message.split('\n')[0];
      throw new Error(`redis-cli --cluster create failed: ${exited ?? why}`);
    });
    for (const probe of probes) {
      await waitFor(
        deadline,
        'cluster_state:ok on every node',
        async () => /cluster_state:ok/.test(String(await probe.call('CLUSTER', 'INFO'))),
        gaveUp,
      );
    }
  } catch (err) {
    const { message } = err as Error;
    const why = `${message}${exited && exited !== message ? `; ${exited}` : ''}; logs: ${logTails(dir, ports)}`;
    await stop();
    throw new Error(why);
  } finally {
    for (const probe of probes) probe.disconnect();
  }
  const nodes = ports.map((p) => `redis://127.0.0.1:${p}`);
  return { nodes, connect: () => connectRedis({ clusterNodes: nodes }), stop };
}

/**
 * One cluster for the test file that calls this at its top, started before its tests and stopped
 * after them; the getter answers it (undefined when the cluster suites are skipped).
 */
export function useRedisCluster(): () => TestRedisCluster {
  let cluster: TestRedisCluster | undefined;
  beforeAll(
    async () => {
      if (!CLUSTER_SKIP) cluster = await startRedisCluster();
    },
    TRIES * TRY_MS + 10_000,
  );
  afterAll(() => cluster?.stop());
  return () => {
    if (!cluster) throw new Error('the test Redis Cluster is not running');
    return cluster;
  };
}

export interface SharedRedis {
  label: 'redis' | 'redis cluster';
  skip: string | false;
  /** What startTestApp takes to use it, REDIS_URL or REDIS_CLUSTER_NODES included. */
  appOptions(): { redis?: boolean; redisCluster?: string[]; env: Record<string, string> };
  /** A new client, ready; the caller quits it. */
  connect(): Promise<RedisClient>;
}

/**
 * One Redis and a Redis Cluster, for suites that run once on each: `for (const shared of sharedRedis())`
 * at the file's top (which starts the file's cluster).
 */
export function sharedRedis(): SharedRedis[] {
  const cluster = useRedisCluster();
  return [
    {
      label: 'redis',
      skip: REDIS_SKIP,
      appOptions: () => ({ redis: true, env: { REDIS_URL: services.redisUrl! } }),
      connect: () => connectRedis({ url: services.redisUrl! }),
    },
    {
      label: 'redis cluster',
      skip: CLUSTER_SKIP,
      appOptions: () => ({ redisCluster: cluster().nodes, env: { REDIS_CLUSTER_NODES: cluster().nodes.join(',') } }),
      connect: () => cluster().connect(),
    },
  ];
}
