/**
 * `npm run bench [-- --quick] [--sizes 10000,100000,1000000] [--rounds 5] [--seconds 3] [--burst 10] [--backends sqlite,postgres,redis] [--docs]`
 * `npm run bench -- --soak [--soak-minutes 10] [--docs]`: see soak.ts.
 *
 * Builds the server as `npm run build` does (`scripts/build-server.ts`; the site is not needed) and
 * starts a bare Fastify app and the compiled server (`node packages/server/dist/main.js`, what
 * `npm start` runs) as separate processes, seeds boards, and drives each
 * game-API path (and a mix of them) with autocannon in interleaved rounds (baseline, endpoint,
 * baseline, …), after a warm-up. Reports the median ratio endpoint/baseline and requests per second
 * with p50/p99, each path's p99 during a burst of submits against its idle p99 (largest board only;
 * 2 s bursts with `--quick`), in-process costs of the rank index, memory, and growth from the
 * smallest board to the largest; writes JSON and markdown into
 * bench/results/ (and docs/performance.md with --docs). `--quick` keeps the bench working in CI and
 * asserts nothing about speed.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Redis } from 'ioredis';
import type { Database } from '../packages/server/src/db/database.js';
import { migrateToLatest } from '../packages/server/src/db/migrate.js';
import { memoryRankIndex } from '../packages/server/src/modules/ranking/memory-index.js';
import { redisRankIndex } from '../packages/server/src/modules/ranking/redis-index.js';
import { baselineOf, drive, MIXED, PATHS, percentile, probe, type Load } from './load.js';
import { goals, markdown, type Burst, type Goal, type SizeResult } from './report.js';
import {
  forgetRanks,
  openBackend,
  pgUrl,
  redisUrl,
  ROOT,
  settledRss,
  start,
  startServer,
  stopServer,
} from './processes.js';
import { API_KEY, MODES, seed } from './seed.js';
import { soak } from './soak.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const quick = process.argv.includes('--quick');
const sizes = (arg('sizes') ?? (quick ? '10000' : '10000,100000,1000000')).split(',').map(Number);
const rounds = Number(arg('rounds') ?? (quick ? 1 : 5));
const seconds = Number(arg('seconds') ?? (quick ? 1 : 3));
const burstSeconds = Number(arg('burst') ?? (quick ? 2 : 10));
const backends = (
  arg('backends') ?? ['sqlite', pgUrl && 'postgres', pgUrl && redisUrl && 'redis'].filter(Boolean).join(',')
).split(',');

const tsx = join(ROOT, 'node_modules/.bin/tsx');
const TSX_API = import.meta.resolve('tsx/esm/api');
const BURST = new URL('./burst.ts', import.meta.url).href;

const rand = (n: number) => Math.floor(Math.random() * n);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measureIndex(
  backend: string,
  database: Database,
  gameId: string,
  size: number,
): Promise<SizeResult['index']> {
  const board = { boardId: `${gameId}-keep`, periodStart: 0, sort: 'desc' as const, generation: 0 };
  const key = () => ({
    score: rand(1_000_003),
    timestamp: Number.MAX_SAFE_INTEGER,
    player_name: '\u{10FFFF}',
    id: '\u{10FFFF}',
  });
  const gc = (globalThis as { gc?: () => void }).gc;
  if (backend === 'redis') {
    const redis = new Redis(redisUrl!);
    const index = redisRankIndex(database.db, redis, { prefix: `howl-bench:${gameId}`, rows: database.rows });
    const t0 = performance.now();
    await index.countAbove(board, key());
    await index.settled();
    const rebuildMs = performance.now() - t0;
    // Interleaved in batches, so a busy moment on the machine weighs on both sides alike.
    const zset = `howl-bench:${gameId}:{${board.boardId}}:0:desc:z`;
    // Members of the set: Redis ranks them by walking its skip list, as a position's count does. A
    // name not in the set is answered from the member table alone (15 µs less at 10^6 here).
    // The first member is the set's marker (the empty member at -inf); the entries stand after it.
    const card = await redis.zcard(zset);
    const members: string[] = [];
    for (let i = 0; i < 100 && card > 1; i++) {
      const at = 1 + rand(card - 1);
      members.push(...(await redis.zrange(zset, at, at)));
    }
    if (members.length === 0) throw new Error(`the Redis set ${zset} holds no members to rank`);
    let positionMs = 0;
    let zrankMs = 0;
    const batches = 20;
    const n = 100;
    for (let b = 0; b < batches; b++) {
      let t = performance.now();
      for (let i = 0; i < n; i++) await index.countAbove(board, key());
      positionMs += performance.now() - t;
      t = performance.now();
      for (let i = 0; i < n; i++) await redis.zrank(zset, members[i % members.length]!);
      zrankMs += performance.now() - t;
    }
    const positionMicros = (positionMs * 1000) / (batches * n);
    const zrankMicros = (zrankMs * 1000) / (batches * n);
    await index.reset(board.boardId, 0);
    await redis.quit();
    return { rebuildMs, bytesPerEntry: null, positionMicros, zrankMicros };
  }
  // Typed arrays live outside the JavaScript heap: count both. The collector hands back the typed
  // arrays it found dead a moment after `gc()` returns (a load's spare arena read as 35 B an entry
  // more when read at once): collect, let it finish, collect again.
  const held = async () => {
    gc!();
    await new Promise((resolve) => setTimeout(resolve, 200));
    gc!();
    return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  };
  const before = gc ? await held() : 0;
  const index = memoryRankIndex(database.db, { rows: database.rows });
  const t0 = performance.now();
  await index.countAbove(board, key());
  await index.settled();
  const rebuildMs = performance.now() - t0;
  const bytesPerEntry = gc ? ((await held()) - before) / size : null;
  // A pass to compile the path, then the median of five: one pass alone read 6.49 µs in a full run
  // where passes of the same code read 1.9–3.2 µs on the same machine a while later.
  const pass = async (n: number) => {
    const keys = Array.from({ length: n }, key);
    const t = performance.now();
    for (const k of keys) await index.countAbove(board, k);
    return ((performance.now() - t) * 1000) / n;
  };
  await pass(20_000);
  const passes: number[] = [];
  for (let i = 0; i < 5; i++) passes.push(await pass(20_000));
  return { rebuildMs, bytesPerEntry, positionMicros: median(passes) };
}

/**
 * Each path's p99 while the server is idle but for the probes, then during a burst of submits, in
 * interleaved rounds; the ratio per path is the median of the rounds' burst p99 / idle p99.
 */
async function measureBurst(base: string, headers: Record<string, string>): Promise<Burst> {
  // The mix is made of the other paths: probing it would say nothing new.
  const probed = PATHS.filter((p) => p !== MIXED);
  // The probes start once the burst runs and stop before it ends.
  const window = Math.max(500, burstSeconds * 1000 - 1000);
  const idle: Array<Map<string, number[]>> = [];
  const busy: Array<Map<string, number[]>> = [];
  const submitRps: number[] = [];
  for (let r = 0; r < rounds; r++) {
    idle.push(await probe(base, probed, headers, window));
    // A worker does not inherit the tsx loader of `--import tsx`: it registers its own first.
    const worker = new Worker(
      `import(${JSON.stringify(TSX_API)}).then((t) => t.register()).then(() => import(${JSON.stringify(BURST)}))`,
      {
        eval: true,
        workerData: { base, headers, seconds: burstSeconds },
      },
    );
    const started = new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const done = new Promise<number>((resolve, reject) => {
      worker.on('message', (m: number | 'started') => m !== 'started' && resolve(m));
      worker.once('error', reject);
    });
    await started;
    await new Promise((resolve) => setTimeout(resolve, 500));
    busy.push(await probe(base, probed, headers, window));
    submitRps.push(await done);
    await worker.terminate();
  }
  const paths: Burst['paths'] = {};
  for (const { name } of probed) {
    const p99s = (rs: Array<Map<string, number[]>>) => rs.map((m) => percentile(m.get(name)!, 99));
    const idleP99 = p99s(idle);
    const burstP99 = p99s(busy);
    paths[name] = {
      idleP99: median(idleP99),
      burstP99: median(burstP99),
      ratio: median(idleP99.map((v, i) => burstP99[i]! / v)),
    };
    console.log(
      `  burst: ${name.padEnd(24)} p99 ${paths[name]!.idleP99.toFixed(2)} → ${paths[name]!.burstP99.toFixed(2)} ms (${paths[name]!.ratio.toFixed(1)}x)`,
    );
  }
  return { seconds: burstSeconds, probeSeconds: window / 1000, submitRps: median(submitRps), paths };
}

/**
 * The calls a server gets before it is measured: the first start the index loads, which then get
 * time to finish; then every path (the mix alone with --quick, so CI stays short).
 */
async function warmUp(base: string, headers: Record<string, string>, rebuildMs: number): Promise<void> {
  for (const mode of MODES) await fetch(`${base}/v1/leaderboards/${mode}/scores?max=1`, { headers });
  await new Promise((resolve) => setTimeout(resolve, Math.max(1000, rebuildMs * 3)));
  for (const path of quick ? [MIXED] : PATHS) await drive(base, path.request, headers, seconds).catch(() => undefined);
}

/**
 * The settled RSS (MB) of a server whose boards are empty, after the warm-up every measured server
 * gets: what a board adds is a measured server's settled RSS above it, apart from what the traffic
 * and the player documents leave in any server.
 */
async function emptyBoardsRss(backend: string): Promise<number> {
  return withBenchGame(backend, async (b, gameId) => {
    await seed(b.database.db, gameId, 0);
    const server = await startServer({ ...b.env, DATABASE_URL: b.url });
    try {
      await warmUp(server.base, { 'x-api-key': API_KEY, 'x-game-id': gameId }, 0);
      return (await settledRss(server.child)) / 2 ** 20;
    } finally {
      await stopServer(server.child);
    }
  });
}

/**
 * Runs `measure` on a fresh, migrated store of `backend` with a new game id, and removes both after
 * it: the store, and what the game's boards left in Redis.
 */
async function withBenchGame<T>(
  backend: string,
  measure: (b: Awaited<ReturnType<typeof openBackend>>, gameId: string) => Promise<T>,
): Promise<T> {
  const b = await openBackend(backend);
  const gameId = `bench${randomBytes(4).toString('hex')}`;
  try {
    await migrateToLatest(b.database);
    return await measure(b, gameId);
  } finally {
    await b.database.destroy();
    await b.cleanup();
    if (backend === 'redis') await forgetRanks(gameId);
  }
}

async function benchSize(
  backend: string,
  size: number,
  baseline: string,
  withBurst: boolean,
  emptyRssMb: number,
): Promise<SizeResult> {
  return withBenchGame(backend, async (b, gameId) => {
    const seeded = performance.now();
    await seed(b.database.db, gameId, size);
    console.log(
      `  seeded ${size.toLocaleString('en')} entries in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
    );
    const index = await measureIndex(backend, b.database, gameId, size);
    // node itself (not npm, which would run the server in a child): its RSS is the server's.
    const server = await startServer({ ...b.env, DATABASE_URL: b.url });
    const base = server.base;
    const headers = { 'x-api-key': API_KEY, 'x-game-id': gameId };
    try {
      await warmUp(base, headers, index.rebuildMs);
      const rssMb = (await settledRss(server.child)) / 2 ** 20;
      console.log(`  settled RSS ${rssMb.toFixed(0)} MB (empty boards ${emptyRssMb.toFixed(0)} MB)`);
      const paths: SizeResult['paths'] = {};
      for (const path of PATHS) {
        const ratios: number[] = [];
        const loads: Load[] = [];
        const bases: Load[] = [];
        for (let r = 0; r < rounds; r++) {
          const bl = await drive(baseline, baselineOf(path.request), {}, seconds);
          const load = await drive(base, path.request, headers, seconds);
          bases.push(bl);
          loads.push(load);
          ratios.push(load.rps / bl.rps);
        }
        const p = (paths[path.name] = {
          ratio: median(ratios),
          rps: median(loads.map((l) => l.rps)),
          baselineRps: median(bases.map((l) => l.rps)),
          p50: median(loads.map((l) => l.p50)),
          p99: median(loads.map((l) => l.p99)),
        });
        console.log(
          `  ${path.name.padEnd(24)} ${p.ratio.toFixed(2)}x  ${Math.round(p.rps)} req/s (baseline ${Math.round(p.baselineRps)})  p50 ${p.p50} ms  p99 ${p.p99} ms`,
        );
      }
      const burst = withBurst ? await measureBurst(base, headers) : undefined;
      return { size, paths, index, rssMb, boardRssMb: rssMb - emptyRssMb, ...(burst ? { burst } : {}) };
    } finally {
      await stopServer(server.child);
    }
  });
}

// The numbers are of what production runs: the bundle `npm start` runs, built from these sources.
execFileSync(tsx, ['scripts/build-server.ts'], { cwd: ROOT, stdio: 'inherit' });
if (process.argv.includes('--soak')) {
  await soak({ minutes: Number(arg('soak-minutes') ?? 10), docs: process.argv.includes('--docs') });
  process.exit(0);
}
const baselineServer = await start(tsx, ['bench/baseline.ts'], {}, /baseline listening on (\d+)/);
const baseline = `http://127.0.0.1:${baselineServer.match[1]}`;
const all: Array<{ backend: string; results: SizeResult[]; goals: Goal[] }> = [];
try {
  for (const backend of backends) {
    console.log(`\n${backend}`);
    const results: SizeResult[] = [];
    const emptyRssMb = await emptyBoardsRss(backend);
    for (const size of sizes) {
      console.log(` ${size.toLocaleString('en')} entries`);
      // The burst runs on the largest board only: the goals read it there.
      results.push(await benchSize(backend, size, baseline, size === sizes.at(-1), emptyRssMb));
    }
    const gs = goals(backend, results);
    for (const goal of gs)
      console.log(
        `  ${goal.meets === null ? 'not measured' : goal.meets ? 'meets ' : 'misses'}  ${goal.what}: ${goal.value === null ? 'n/a' : `${goal.value.toFixed(2)} ${goal.unit}`} (goal ${goal.target})`,
      );
    all.push({ backend, results, goals: gs });
  }
} finally {
  baselineServer.child.kill('SIGTERM');
}

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(
  join(ROOT, `bench/results/${stamp}.json`),
  JSON.stringify({ quick, sizes, rounds, seconds, burstSeconds, node: process.version, all }, null, 2),
);
const md = markdown(all, { quick, rounds, seconds, burstSeconds, paths: PATHS.map((p) => p.name) });
writeFileSync(join(ROOT, `bench/results/${stamp}.md`), md);
if (process.argv.includes('--docs')) writeFileSync(join(ROOT, 'docs/performance.md'), md);
console.log(
  `\nWrote bench/results/${stamp}.json and .md${process.argv.includes('--docs') ? ' and docs/performance.md' : ''}`,
);
process.exit(0);
