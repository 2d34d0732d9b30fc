/**
 * `npm run bench -- --soak [--soak-minutes 10] [--docs]`: three compiled servers on one PostgreSQL
 * and one Redis (Redis rank index), a seeded game, the mixed workload (70 % reads, 20 % submits,
 * 10 % player data) spread evenly over them. First their capacity: the mix as fast as 10 clients
 * per server go. Then the soak at 70 % of it for the given minutes, sampling every 30 s the p50/p99,
 * the answers that were not 2xx, and the RSS of each server. Memory is judged flat when the mean RSS
 * of each server over the last third of the samples is within 10 % of the first third's. Writes
 * JSON and markdown into bench/results/ (and the section into docs/performance.md with --docs).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { migrateToLatest } from '../packages/server/src/db/migrate.js';
import { cannon, MIXED, percentile } from './load.js';
import { forgetRanks, openBackend, ROOT, rssOf, startServer, stopServer } from './processes.js';
import { soakMarkdown, type SoakResult, type SoakSample } from './report.js';
import { API_KEY, MODES, seed } from './seed.js';

const PROCESSES = 3;
const ENTRIES = 100_000;
const SAMPLE_SECONDS = 30;
const CAPACITY_SECONDS = 10;
const LOAD_SHARE = 0.7;

/** The mix against every server at once for `seconds` (at `rate` requests/s in all, or flat out). */
async function mixOn(bases: string[], headers: Record<string, string>, seconds: number, rate?: number) {
  const times: number[] = [];
  const results = await Promise.all(
    bases.map((base) => {
      const options = cannon(base, MIXED.request, headers, seconds);
      return new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(
          rate === undefined ? options : { ...options, overallRate: rate / bases.length },
          (err, result) => (err ? reject(err as Error) : resolve(result)),
        );
        instance.on('response', (_client, _status, _bytes, ms) => times.push(ms));
      });
    }),
  );
  times.sort((a, b) => a - b);
  return {
    rps: results.reduce((sum, r) => sum + r.requests.total, 0) / seconds,
    p50: times.length > 0 ? tenths(percentile(times, 50)) : 0,
    p99: times.length > 0 ? tenths(percentile(times, 99)) : 0,
    errors: results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
  };
}

const tenths = (ms: number) => Math.round(ms * 10) / 10;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Per server: the mean RSS of the last third of the samples over the first third's. */
function memoryGrowth(samples: SoakSample[]): number[] {
  const third = Math.max(1, Math.floor(samples.length / 3));
  return samples[0]!.rssMb.map((_, i) => {
    const of = (xs: SoakSample[]) => mean(xs.map((s) => s.rssMb[i]!));
    return of(samples.slice(-third)) / of(samples.slice(0, third)) - 1;
  });
}

export async function soak({ minutes, docs }: { minutes: number; docs: boolean }): Promise<void> {
  const backend = await openBackend('redis');
  const gameId = `soak${randomBytes(4).toString('hex')}`;
  const servers: Array<Awaited<ReturnType<typeof startServer>>> = [];
  try {
    await migrateToLatest(backend.database);
    await seed(backend.database.db, gameId, ENTRIES);
    for (let i = 0; i < PROCESSES; i++) servers.push(await startServer({ ...backend.env, DATABASE_URL: backend.url }));
    const bases = servers.map((s) => s.base);
    const headers = { 'x-api-key': API_KEY, 'x-game-id': gameId };
    // Warm-up: every board's index built in Redis, every server's code paths run.
    for (const base of bases)
      for (const mode of MODES) await fetch(`${base}/v1/leaderboards/${mode}/scores?max=1`, { headers });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await mixOn(bases, headers, 3);

    const capacity = (await mixOn(bases, headers, CAPACITY_SECONDS)).rps;
    const rate = Math.round(capacity * LOAD_SHARE);
    console.log(
      `\nsoak: capacity ${Math.round(capacity)} req/s on ${PROCESSES} processes; ${rate} req/s for ${minutes} min`,
    );

    const samples: SoakSample[] = [];
    const windows = Math.max(1, Math.round((minutes * 60) / SAMPLE_SECONDS));
    for (let w = 1; w <= windows; w++) {
      const load = await mixOn(bases, headers, SAMPLE_SECONDS, rate);
      const sample = {
        atSeconds: w * SAMPLE_SECONDS,
        ...load,
        rssMb: servers.map((s) => rssOf(s.child.pid!) / 2 ** 20),
      };
      samples.push(sample);
      console.log(
        `  ${String(sample.atSeconds).padStart(4)} s  ${Math.round(load.rps)} req/s  p50 ${load.p50} ms  p99 ${load.p99} ms  errors ${load.errors}  RSS ${sample.rssMb.map((m) => m.toFixed(0)).join(' / ')} MB`,
      );
    }
    const growth = memoryGrowth(samples);
    const result: SoakResult = {
      minutes,
      processes: PROCESSES,
      entries: ENTRIES,
      capacityRps: capacity,
      targetRps: rate,
      samples,
      memoryGrowth: growth,
      memoryFlat: growth.every((g) => g <= 0.1),
      errors: samples.reduce((sum, s) => sum + s.errors, 0),
    };
    console.log(
      `  memory ${result.memoryFlat ? 'flat' : 'grows'} (last third vs first: ${growth.map((g) => `${(g * 100).toFixed(1)} %`).join(', ')}); ${result.errors} errors`,
    );

    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(
      join(ROOT, `bench/results/${stamp}-soak.json`),
      JSON.stringify({ node: process.version, ...result }, null, 2),
    );
    const md = soakMarkdown(result);
    writeFileSync(join(ROOT, `bench/results/${stamp}-soak.md`), md);
    if (docs) {
      // The soak's section replaces the one before it, after the rest of the page.
      const page = join(ROOT, 'docs/performance.md');
      const before = readFileSync(page, 'utf8').split('\n## Soak')[0]!.trimEnd();
      writeFileSync(page, `${before}\n\n${md}`);
    }
    console.log(
      `\nWrote bench/results/${stamp}-soak.json and .md${docs ? ' and the soak section of docs/performance.md' : ''}`,
    );
  } finally {
    for (const s of servers) await stopServer(s.child);
    await backend.database.destroy();
    await backend.cleanup();
    await forgetRanks(gameId);
  }
}
