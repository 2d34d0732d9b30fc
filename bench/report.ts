import { arch, cpus, totalmem } from 'node:os';
import { MODES } from './seed.js';

/** What one board size measured on one backend. */
export interface SizeResult {
  size: number;
  paths: Record<string, { ratio: number; p50: number; p99: number; rps: number; baselineRps: number }>;
  index: { rebuildMs: number; bytesPerEntry: number | null; positionMicros: number; zrankMicros?: number };
  rssGrowthMb: number;
}

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
  const out: Goal[] = [
    ...MODES.map((m) =>
      g(`submit (${m}) vs echo`, '≥ 0.5x', largest.paths[`submit (${m})`]!.ratio, 'x', (v) => v >= 0.5),
    ),
    g('top 10 vs hello', '≥ 0.7x', largest.paths['top 10']!.ratio, 'x', (v) => v >= 0.7),
    g('position vs hello', '≥ 0.6x', largest.paths['position']!.ratio, 'x', (v) => v >= 0.6),
    g('around vs hello', '≥ 0.5x', largest.paths['around (k=3)']!.ratio, 'x', (v) => v >= 0.5),
  ];
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
        `server RSS growth, one ${largest.size.toLocaleString('en')}-entry board`,
        '≤ 128 MB',
        largest.rssGrowthMb,
        'MB',
        (v) => v <= 128,
      ),
    );
  }
  return out;
}

export function markdown(
  all: Array<{ backend: string; results: SizeResult[]; goals: Goal[] }>,
  run: { quick: boolean; rounds: number; seconds: number; paths: string[] },
): string {
  const { quick, rounds, seconds } = run;
  const lines = [
    '# Performance',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench${quick ? ' -- --quick' : ''}\` on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} (${arch()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. Rounds: ${rounds} × ${seconds} s, 10 connections. Ratios are requests per second against the bare Fastify baseline in the same run (median of the rounds).`,
  ];
  for (const { backend, results, goals: gs } of all) {
    lines.push(
      '',
      `## ${backend}`,
      '',
      '| path | ' +
        results.map((r) => `${r.size.toLocaleString('en')} entries: ratio · p50 / p99 ms`).join(' | ') +
        ' |',
      '|---|' + results.map(() => '---|').join(''),
    );
    for (const name of run.paths)
      lines.push(
        `| ${name} | ` +
          results
            .map((r) => `${r.paths[name]!.ratio.toFixed(2)}x · ${r.paths[name]!.p50} / ${r.paths[name]!.p99}`)
            .join(' | ') +
          ' |',
      );
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
    lines.push('| server RSS growth | ' + results.map((r) => `${r.rssGrowthMb.toFixed(0)} MB`).join(' | ') + ' |');
    lines.push('', '| goal | target | measured | |', '|---|---|---|---|');
    for (const goal of gs)
      lines.push(
        `| ${goal.what} | ${goal.target} | ${goal.value === null ? 'n/a' : `${goal.value.toFixed(2)} ${goal.unit}`} | ${goal.meets === null ? 'not measured' : goal.meets ? 'meets' : 'misses'} |`,
      );
  }
  return `${lines.join('\n')}\n`;
}
