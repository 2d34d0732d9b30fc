/**
 * `npm run bench:profile [-- --paths "top 10,submit (keep)"] [--entries 100000] [--seconds 8] [--backend sqlite]`
 *
 * Where a game call's time goes: builds the server, starts it on a seeded board (SQLite, or
 * `--backend postgres` or `redis` as bench/run.ts has them) under
 * `node --cpu-prof`, drives each named path (see load.ts) with autocannon, and prints the CPU
 * samples of each path's profile by package (node_modules), by server module, and the heaviest
 * functions. The profiles stay in bench/results/profile/ for Chrome's DevTools.
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { migrateToLatest } from '../packages/server/src/db/migrate.js';
import { drive, PATHS } from './load.js';
import { forgetRanks, openBackend } from './processes.js';
import { API_KEY, SERVER_ENV, seed } from './seed.js';

const ROOT = new URL('..', import.meta.url).pathname;
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1]!;
};
const names = arg('paths', 'top 10,position,around (k=3),submit (keep),player data put (1 KB)').split(',');
const entries = Number(arg('entries', '100000'));
const seconds = Number(arg('seconds', '8'));
const backend = arg('backend', 'sqlite');
const out = join(ROOT, 'bench/results/profile');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  endTime: number;
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a sampled frame lives: a package, a server module, a Node internal, or what V8 names it. */
function placeOf({ url, functionName }: ProfileNode['callFrame']): string {
  if (!url) return functionName || '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node (http, streams, crypto)';
  return 'server code';
}

/**
 * Self time by place and by function, as shares of the busy (non-idle) time, over the last
 * `seconds` of the profile: the measured load, not the start-up's compiling and loading.
 */
function summarize(file: string, seconds: number, top = 12): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const from = profile.endTime - seconds * 1e6;
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id)!.callFrame;
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (at < from || frame.functionName === '(idle)') return;
    busy += dt;
    const place = placeOf(frame);
    byPlace.set(place, (byPlace.get(place) ?? 0) + dt);
    const fn = `${frame.functionName || '(anonymous)'} (${place})`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + dt);
  });
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, t]) => `  ${((100 * t) / busy).toFixed(1).padStart(5)} %  ${k}`)
      .join('\n');
  return `busy ${(busy / 1000).toFixed(0)} ms\n by place:\n${rows(byPlace)}\n by function:\n${rows(byFunction)}`;
}

execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts'], { cwd: ROOT, stdio: 'inherit' });
const store = await openBackend(backend);
await migrateToLatest(store.database);
const gameId = 'profile';
await seed(store.database.db, gameId, entries);
rmSync(out, { recursive: true, force: true });

try {
  for (const name of names) {
    const path = PATHS.find((p) => p.name === name);
    if (!path) throw new Error(`no path named "${name}"; see bench/load.ts`);
    const profileDir = join(out, name.replace(/\W+/g, '-'));
    mkdirSync(profileDir, { recursive: true });
    const child = spawn(
      process.execPath,
      ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, 'packages/server/dist/main.js'],
      {
        cwd: ROOT,
        env: { ...process.env, ...store.env, DATABASE_URL: store.url, ...SERVER_ENV },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let log = '';
    const base = await new Promise<string>((resolve, reject) => {
      const onData = (d: Buffer) => {
        log += d.toString();
        const m = /listening on (http:\/\/localhost:\d+)/.exec(log);
        if (m) resolve(m[1]!);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${log}`)));
    });
    const headers = { 'x-api-key': API_KEY, 'x-game-id': gameId };
    // The first call loads the board's index; the profile is of calls after it.
    await fetch(`${base}/v1/leaderboards/keep/scores?max=1`, { headers });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await drive(base, path.request, headers, 2);
    const load = await drive(base, path.request, headers, seconds);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    // The main thread's profile is the largest; the others are the WAL checkpointer's worker.
    const [main] = readdirSync(profileDir)
      .map((f) => join(profileDir, f))
      .sort((a, b) => readFileSync(b).length - readFileSync(a).length);
    console.log(`\n## ${name}: ${load.rps.toFixed(0)} req/s, p50 ${load.p50} ms, p99 ${load.p99} ms`);
    console.log(summarize(main!, seconds));
  }
} finally {
  await store.database.destroy();
  await store.cleanup();
  if (backend === 'redis') await forgetRanks(gameId);
}
