import type { Operation } from './requests.js';
import type { Answer } from './send.js';

/** How each operation fared: answers by status and time spent (FUZZ_STATS=1 prints it). */
export class Tally {
  private readonly rows = new Map<string, { ms: number; statuses: Map<number, number> }>();

  add(op: Operation, answer: Answer): void {
    const key = `${op.method} ${op.path}`;
    const row = this.rows.get(key) ?? { ms: 0, statuses: new Map<number, number>() };
    row.ms += answer.ms;
    row.statuses.set(answer.status, (row.statuses.get(answer.status) ?? 0) + 1);
    this.rows.set(key, row);
  }

  /** Answers below 300: requests that got all the way through a route. */
  succeeded(): number {
    let sum = 0;
    for (const row of this.rows.values()) for (const [status, count] of row.statuses) if (status < 300) sum += count;
    return sum;
  }

  report(): string {
    return [...this.rows]
      .sort((a, b) => b[1].ms - a[1].ms)
      .map(
        ([key, row]) =>
          `${Math.round(row.ms).toString().padStart(7)} ms  ${key}  ${JSON.stringify(Object.fromEntries(row.statuses))}`,
      )
      .join('\n');
  }
}
