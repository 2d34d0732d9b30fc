import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { DB } from '../../src/db/schema.js';
import { services } from './services.js';

type Step = (other: pg.Client) => Promise<unknown>;

/**
 * A race with another process, made exact: on a connection of its own (in the schema `db` uses),
 * begins a transaction and runs `hold`, which takes a lock; starts `run`; waits until PostgreSQL
 * shows a statement blocked by that connection (not guessed from a delay); calls `whileBlocked`,
 * runs `then` on the other connection and commits. Answers what `run` answered.
 */
export async function heldElsewhere<T>(
  db: Kysely<DB>,
  steps: { hold: Step; then?: Step; whileBlocked?: () => Promise<unknown> },
  run: () => Promise<T>,
): Promise<T> {
  const { schema } = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!;
  const other = new pg.Client({ connectionString: services.postgresUrl });
  await other.connect();
  try {
    await other.query(`set search_path to ${schema}`);
    await other.query('begin');
    await steps.hold(other);
    const pid = (await other.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const running = run();
    // Settled either way, so a failure while waiting below does not leave it unhandled.
    running.catch(() => undefined);
    for (let waited = 0; !(await blockedBy(db, pid)); waited += 10) {
      if (waited > 10_000) throw new Error('nothing reached the lock held elsewhere');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await steps.whileBlocked?.();
    await steps.then?.(other);
    await other.query('commit');
    return await running;
  } finally {
    await other.end();
  }
}

/** Whether a statement waits on a lock the backend `pid` holds. */
const blockedBy = async (db: Kysely<DB>, pid: number) =>
  (
    await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where ${pid} = any(pg_blocking_pids(pid))`.execute(db)
  ).rows[0]!.n > 0;
