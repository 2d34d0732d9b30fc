import { semaphore } from '../../lib/semaphore.js';
import { resolvesWithin } from '../../lib/timeout.js';

/**
 * SQL counts a process runs at once for a period its index does not hold yet (a Redis set not built,
 * an in-process load not done; not while Redis is out of reach): each walks every entry above its
 * key, and unbounded they fill the pool and take the cores the load or rebuild reads with.
 */
export const SQL_COUNTS_AT_ONCE = 2;

/** This process's rebuild of a period while it runs, and how many calls wait for it. */
export interface Rebuilding {
  load: Promise<void>;
  started: number;
  waiters: number;
}

/**
 * How a count or an around answers while its period's set is not built. While this process
 * rebuilds it, a call asks SQL at once if none waits and a place is free: light traffic never
 * waits out a rebuild (6–16 s at 10^6 entries) for what a count answers in a fraction of a second.
 * Under load the others wait for the rebuild (up to `waitMs`), so SQL does not take the cores it
 * reads with, then ask Redis again. After the wait, or during another process's rebuild, SQL
 * answers a few at a time, and a call whose turn comes once the set is built asks Redis first.
 */
export function notBuiltAnswers(waitMs: number) {
  const sqlCounts = semaphore(SQL_COUNTS_AT_ONCE);
  return async function whileNotBuilt<T>(
    running: Rebuilding | undefined,
    fromRedis: () => Promise<T | null | undefined>,
    fromSql: () => Promise<T>,
  ): Promise<T> {
    if (running && running.waiters === 0 && sqlCounts.free()) return sqlCounts(fromSql);
    if (running) {
      running.waiters++;
      const ended = await resolvesWithin(running.load, waitMs).finally(() => running.waiters--);
      const again = ended ? await fromRedis() : null;
      if (again !== null) return again ?? fromSql(); // undefined: Redis went out of reach meanwhile
    }
    return sqlCounts(async () => (await fromRedis()) ?? fromSql());
  };
}
