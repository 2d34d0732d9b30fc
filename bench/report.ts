import { arch, cpus, totalmem } from 'node:os';
import { MODES } from './seed.js';

/** What one board size measured on one backend. */
export interface SizeResult {
  size: number;
  paths: Record<string, { ratio: number; p50: number; p99: number; rps: number; baselineRps: number }>;
  index: { rebuildMs: number; bytesPerEntry: number | null; positionMicros: number; zrankMicros?: number };
  /** The server's RSS after its warm-up and a full collection. */
  rssMb: number;
  /** What the board adds: rssMb above the same server's on empty boards, after the same warm-up. */
  boardRssMb: number;
  /** Measured on the largest board only. */
  burst?: Burst;
}

/** Each path's p99 (ms) alone and during a burst of submits; ratio is the median of burst / idle per round. */
export interface Burst {
  seconds: number;
  probeSeconds: number;
  submitRps: number;
  paths: Record<string, { idleP99: number; burstP99: number; ratio: number }>;
}

/** The issue's goals per backend; null where a backend has none. */
const TARGETS: Record<string, Record<string, number | null>> = {
  sqlite: { submit: 0.5, 'top 10': 0.7, position: 0.6, around: 0.5, 'player data get': 0.6, 'player data put': 0.4 },
  postgres: { submit: 0.3, 'top 10': 0.7, position: 0.6, around: 0.5, 'player data get': 0.5, 'player data put': 0.25 },
  redis: { submit: 0.25, 'top 10': 0.5, position: 0.4, around: 0.35, 'player data get': null, 'player data put': null },
};
const BURST_TARGET = 4;

export interface Goal {
  what: string;
  target: string;
  value: number | null;
  unit: string;
  meets: boolean | null;
}

export function goals(backend: string, results: SizeResult[]): Goal[] {
  const largest = results.at(-1)!;
  const smallest = results[0]!;
  const g = (what: string, target: string, value: number | null, unit: string, ok: (v: number) => boolean): Goal => ({
    what,
    target,
    value,
    unit,
    meets: value === null ? null : ok(value),
  });
  const targets = TARGETS[backend] ?? TARGETS.sqlite!;
  const ratio = (what: string, target: keyof typeof targets, path: string, baseline: string) => {
    const t = targets[target];
    return t == null ? [] : [g(`${what} vs ${baseline}`, `≥ ${t}x`, largest.paths[path]!.ratio, 'x', (v) => v >= t)];
  };
  const out: Goal[] = [
    ...MODES.flatMap((m) => ratio(`submit (${m})`, 'submit', `submit (${m})`, 'echo')),
    ...ratio('top 10', 'top 10', 'top 10', 'hello'),
    ...ratio('position', 'position', 'position', 'hello'),
    ...ratio('around', 'around', 'around (k=3)', 'hello'),
    ...ratio('player data get (1 KB)', 'player data get', 'player data get (1 KB)', 'hello'),
    ...ratio('player data put (1 KB)', 'player data put', 'player data put (1 KB)', 'echo'),
  ];
  if (largest.burst) {
    const [worst, p] = Object.entries(largest.burst.paths).sort(([, a], [, b]) => b.ratio - a.ratio)[0]!;
    out.push(
      g(
        `p99 during a ${largest.burst.seconds} s burst of submits vs idle p99, worst path (${worst})`,
        `≤ ${BURST_TARGET}x`,
        p.ratio,
        'x',
        (v) => v <= BURST_TARGET,
      ),
    );
  }
  if (results.length > 1) {
    for (const name of ['position', 'around (k=3)', 'submit (keep)']) {
      out.push(
        g(
          `growth of ${name} p50, ${smallest.size.toLocaleString('en')} → ${largest.size.toLocaleString('en')}`,
          '≤ 3',
          Math.max(largest.paths[name]!.p50, 0.5) / Math.max(smallest.paths[name]!.p50, 0.5),
          'x',
          (v) => v <= 3,
        ),
      );
    }
  }
  if (backend === 'redis') {
    out.push(
      g(
        'position vs one ZRANK round trip',
        '≤ 1.2x',
        largest.index.positionMicros / largest.index.zrankMicros!,
        'x',
        (v) => v <= 1.2,
      ),
    );
  } else {
    out.push(g('in-process position', '≤ 5 µs', largest.index.positionMicros, 'µs', (v) => v <= 5));
    out.push(g('in-process index memory', '≤ 64 B/entry', largest.index.bytesPerEntry, 'B', (v) => v <= 64));
    out.push(
      g(
        `cold rebuild of ${largest.size.toLocaleString('en')}`,
        '≤ 2 s',
        largest.index.rebuildMs / 1000,
        's',
        (v) => v <= 2,
      ),
    );
    out.push(
      g(
        `server RSS a ${largest.size.toLocaleString('en')}-entry board adds`,
        '≤ 128 MB',
        largest.boardRssMb,
        'MB',
        (v) => v <= 128,
      ),
    );
  }
  return out;
}

export function markdown(
  all: Array<{ backend: string; results: SizeResult[]; goals: Goal[] }>,
  run: { quick: boolean; rounds: number; seconds: number; burstSeconds: number; paths: string[] },
): string {
  const { quick, rounds, seconds, burstSeconds } = run;
  const lines = [
    '# Performance',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench${quick ? ' -- --quick' : ''}\` on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} (${arch()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. The server runs compiled, as \`npm start\` runs it (\`node packages/server/dist/main.js\`). Rounds: ${rounds} × ${seconds} s, 10 connections. Ratios are requests per second against the bare Fastify baseline in the same run (median of the rounds), beside the absolute requests per second; a read's baseline is \`GET /hello\`, a write's is \`POST /echo\` of the same body, and the mix (70 % leaderboard reads, 20 % submits, 10 % player data) is measured against the same mix of the two.`,
    '',
    `Burst (largest board only): every path but the mix is probed by one client, one call every 50 ms, with the server otherwise idle and then while a separate thread submits as fast as 10 connections can for ${burstSeconds} s${quick ? ' (the full bench bursts for 10 s; --quick shortens it, so each probe makes about 20 calls and its p99 is its slowest)' : ''}; the ratio is the median over the rounds of burst p99 / idle p99.`,
    '',
    "Memory: each server is read after its warm-up (every path, or the mix alone with --quick) and a full collection: its settled RSS. What a board adds is that above the settled RSS of a server of the same backend whose boards are empty, after the same warm-up, so the heap the traffic and the player documents leave in any server is not counted as the board's.",
  ];
  for (const { backend, results, goals: gs } of all) {
    lines.push(
      '',
      `## ${backend}`,
      '',
      '| path | ' +
        results.map((r) => `${r.size.toLocaleString('en')} entries: ratio · req/s · p50 / p99 ms`).join(' | ') +
        ' |',
      '|---|' + results.map(() => '---|').join(''),
    );
    for (const name of run.paths)
      lines.push(
        `| ${name} | ` +
          results
            .map(
              (r) =>
                `${r.paths[name]!.ratio.toFixed(2)}x · ${Math.round(r.paths[name]!.rps)} · ${r.paths[name]!.p50} / ${r.paths[name]!.p99}`,
            )
            .join(' | ') +
          ' |',
      );
    const burst = results.at(-1)!.burst;
    if (burst) {
      lines.push(
        '',
        `Burst of submits on ${results.at(-1)!.size.toLocaleString('en')} entries: ${burst.seconds} s, ${Math.round(burst.submitRps)} submits/s, probes over ${burst.probeSeconds} s of it.`,
        '',
        '| path | idle p99 ms | burst p99 ms | burst / idle |',
        '|---|---|---|---|',
      );
      for (const [name, p] of Object.entries(burst.paths))
        lines.push(`| ${name} | ${p.idleP99.toFixed(2)} | ${p.burstP99.toFixed(2)} | ${p.ratio.toFixed(1)}x |`);
    }
    lines.push(
      '',
      '| index | ' + results.map((r) => `${r.size.toLocaleString('en')}`).join(' | ') + ' |',
      '|---|' + results.map(() => '---|').join(''),
    );
    lines.push('| cold rebuild | ' + results.map((r) => `${r.index.rebuildMs.toFixed(0)} ms`).join(' | ') + ' |');
    lines.push(
      '| position, in process | ' + results.map((r) => `${r.index.positionMicros.toFixed(2)} µs`).join(' | ') + ' |',
    );
    if (backend !== 'redis')
      lines.push(
        '| index bytes per entry | ' +
          results.map((r) => (r.index.bytesPerEntry === null ? 'n/a' : r.index.bytesPerEntry.toFixed(0))).join(' | ') +
          ' |',
      );
    lines.push('| server RSS, settled | ' + results.map((r) => `${r.rssMb.toFixed(0)} MB`).join(' | ') + ' |');
    lines.push(
      '| server RSS the board adds | ' + results.map((r) => `${r.boardRssMb.toFixed(0)} MB`).join(' | ') + ' |',
    );
    lines.push('', '| goal | target | measured | |', '|---|---|---|---|');
    for (const goal of gs)
      lines.push(
        `| ${goal.what} | ${goal.target} | ${goal.value === null ? 'n/a' : `${goal.value.toFixed(2)} ${goal.unit}`} | ${goal.meets === null ? 'not measured' : goal.meets ? 'meets' : 'misses'} |`,
      );
  }
  return `${lines.join('\n')}\n`;
}

/** One 30-second window of the soak. */
export interface SoakSample {
  atSeconds: number;
  rps: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx, connection errors and timeouts. */
  errors: number;
  /** Each server process's resident memory at the end of the window. */
  rssMb: number[];
}

export interface SoakResult {
  minutes: number;
  processes: number;
  entries: number;
  capacityRps: number;
  targetRps: number;
  samples: SoakSample[];
  /** Per process: mean RSS of the last third of the samples over the first third's, minus 1. */
  memoryGrowth: number[];
  memoryFlat: boolean;
  errors: number;
}

/** The soak's section of docs/performance.md. */
export function soakMarkdown(r: SoakResult): string {
  const pct = (g: number) => `${g >= 0 ? '+' : ''}${(g * 100).toFixed(1)} %`;
  const lines = [
    '## Soak',
    '',
    `\`npm run bench -- --soak --soak-minutes ${r.minutes}\`: ${r.processes} compiled server processes on one PostgreSQL and one Redis (Redis rank index), ${r.entries.toLocaleString('en')} entries on the \`keep\` board, the mixed workload (70 % reads, 20 % submits, 10 % player data) spread evenly over the processes.`,
    `Capacity (the mix flat out, 10 clients per process): ${Math.round(r.capacityRps)} req/s; the soak runs at 70 % of it, ${r.targetRps} req/s, for ${r.minutes} min.`,
    'Measured on a shared machine: read the numbers as rough.',
    '',
    `| at | req/s | p50 ms | p99 ms | errors | ${Array.from({ length: r.processes }, (_, i) => `RSS ${i + 1} MB`).join(' | ')} |`,
    `|---|---|---|---|---|${Array.from({ length: r.processes }, () => '---|').join('')}`,
    ...r.samples.map(
      (s) =>
        `| ${s.atSeconds} s | ${Math.round(s.rps)} | ${s.p50} | ${s.p99} | ${s.errors} | ${s.rssMb.map((m) => m.toFixed(0)).join(' | ')} |`,
    ),
    '',
    `Memory ${r.memoryFlat ? 'flat' : 'not flat'}: mean RSS of the last third of the samples against the first third, per process, ${r.memoryGrowth.map(pct).join(', ')} (flat: within +10 %). Errors in all: ${r.errors}.`,
  ];
  return `${lines.join('\n')}\n`;
}
