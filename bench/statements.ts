/**
 * `npm run bench:statements [-- --paths "submit (keep),player data put (1 KB)"] [--entries 100000] [--seconds 5]`
 *
 * How much of a call SQLite itself takes: builds the server, seeds a SQLite board as the bench does,
 * and for each named path (see load.ts) starts the compiled server with bench/statement-timer.mjs,
 * drives the path with autocannon and prints each statement's calls and time per request beside the
 * server's CPU per request (all its threads, user and system, from /proc). The bare baseline's CPU
 * per call of the same request is measured the same way, so the statements can be set against the
 * budget a ratio goal leaves: a path at 0.5x of its baseline may take twice the baseline's CPU.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { migrateToLatest } from '../packages/server/src/db/migrate.js';
import { baselineOf, drive, PATHS, type Call } from './load.js';
import { openBackend, ROOT, start, stopServer } from './processes.js';
import { API_KEY, SERVER_ENV, seed } from './seed.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1]!;
};
const names = arg('paths', 'submit (keep),submit (highest),player data put (1 KB)').split(',');
const entries = Number(arg('entries', '100000'));
const seconds = Number(arg('seconds', '5'));
const gameId = 'statements';
const headers = { 'x-api-key': API_KEY, 'x-game-id': gameId };

interface Statement {
  sql: string;
  calls: number;
  ns: number;
}

/** The process's CPU so far (every thread, user and system), in microseconds. */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / 100;
}

/** Asks the server's statement timer for `message` and waits for its answer, if it gives one. */
function ask(child: ChildProcess, message: 'reset' | 'report'): Promise<Statement[]> {
  return new Promise((resolve, reject) => {
    if (message === 'reset') {
      child.send(message);
      resolve([]);
      return;
    }
    const timer = setTimeout(() => reject(new Error('the server did not answer the statement timer')), 30_000);
    child.once('message', (answer: { statements: Statement[] }) => {
      clearTimeout(timer);
      resolve(answer.statements);
    });
    child.send(message);
  });
}

/** Requests a second and CPU microseconds a request of one process under `request()`, after a warm-up. */
async function measure(
  pid: number,
  base: string,
  request: () => Call,
  callHeaders: Record<string, string>,
  afterWarmUp: () => Promise<unknown> = async () => {},
) {
  await drive(base, request, callHeaders, 2);
  await afterWarmUp();
  const before = cpuOf(pid);
  const load = await drive(base, request, callHeaders, seconds);
  const requests = load.rps * seconds;
  return { rps: load.rps, cpuPerCall: (cpuOf(pid) - before) / requests, requests };
}

execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts'], { cwd: ROOT, stdio: 'inherit' });
const store = await openBackend('sqlite');
await migrateToLatest(store.database);
await seed(store.database.db, gameId, entries);
// Node itself, not the tsx wrapper, so that its pid's CPU is the baseline's.
const baseline = await start(process.execPath, ['--import', 'tsx', 'bench/baseline.ts'], {}, /listening on (\d+)/);

try {
  for (const name of names) {
    const path = PATHS.find((p) => p.name === name);
    if (!path) throw new Error(`no path named "${name}"; see bench/load.ts`);
    const { child, match } = await start(
      process.execPath,
      ['--import', './bench/statement-timer.mjs', 'packages/server/dist/main.js'],
      { ...store.env, DATABASE_URL: store.url, ...SERVER_ENV },
      /listening on (http:\/\/localhost:\d+)/,
      true,
    );
    try {
      const base = match[1]!;
      // The first call loads the board's index; what is measured comes after it.
      await fetch(`${base}/v1/leaderboards/keep/scores?max=1`, { headers });
      const bare = await measure(
        baseline.child.pid!,
        `http://127.0.0.1:${baseline.match[1]}`,
        baselineOf(path.request),
        {},
      );
      const served = await measure(child.pid!, base, path.request, headers, () => ask(child, 'reset'));
      const statements = await ask(child, 'report');
      const sqliteUs = statements.reduce((sum, s) => sum + s.ns, 0) / 1000 / served.requests;
      console.log(`\n## ${name}: ${served.rps.toFixed(0)} req/s, baseline ${bare.rps.toFixed(0)} req/s`);
      console.log(
        `  server CPU a call ${served.cpuPerCall.toFixed(1)} µs; baseline's ${bare.cpuPerCall.toFixed(1)} µs`,
      );
      console.log(`  SQLite statements a call ${sqliteUs.toFixed(1)} µs`);
      for (const s of statements.sort((a, b) => b.ns - a.ns).slice(0, 8)) {
        const perCall = s.ns / 1000 / served.requests;
        const each = s.ns / 1000 / s.calls;
        console.log(
          `  ${perCall.toFixed(1).padStart(6)} µs a call  ${(s.calls / served.requests).toFixed(2).padStart(5)} runs a call  ${each.toFixed(1).padStart(6)} µs a run  ${s.sql.slice(0, 70)}`,
        );
      }
    } finally {
      await stopServer(child);
    }
  }
} finally {
  baseline.child.kill('SIGTERM');
  await store.database.destroy();
  await store.cleanup();
}
