import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { DB } from '../../src/db/schema.js';
import { services } from './services.js';

type Step = (other: pg.Client) => Promise<unknown>;

/**
 * A race with another process, made exact: on a connection of its own (in the schema `db` uses),
 * begins a transaction and runs `hold`, which takes a lock; starts `run`; waits until PostgreSQL
 * shows a statement blocked by that connection (not guessed from a delay); calls `whileBlocked`
 * with that statement's backend, runs `then` on the other connection and commits. Answers what
 * `run` answered.
 */
export async function heldElsewhere<T>(
  db: Kysely<DB>,
  steps: { hold: Step; then?: Step; whileBlocked?: (blocked: number) => Promise<unknown> },
  run: () => Promise<T>,
): Promise<T> {
  const { schema } = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!;
  const other = new pg.Client({ connectionString: services.postgresUrl });
  await other.connect();
  try {
    await other.query(`set search_path to ${other.escapeIdentifier(schema)}`);
    await other.query('begin');
    await steps.hold(other);
    const pid = (await other.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    let ended = false;
    const running = run().finally(() => (ended = true));
    // Settled either way, so a failure while waiting below does not leave it unhandled.
    running.catch(() => undefined);
    const giveUp = Date.now() + 10_000;
    let blocked: number | undefined;
    while ((blocked = await blockedBy(db, pid)) === undefined) {
      if (ended) throw new Error('the run ended without waiting on the lock held elsewhere');
      if (Date.now() > giveUp) throw new Error('nothing reached the lock held elsewhere');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await steps.whileBlocked?.(blocked);
    await steps.then?.(other);
    await other.query('commit');
    return await running;
  } finally {
    await other.end();
  }
}

/** The backend of a statement that waits on a lock the backend `pid` holds, if one does. */
const blockedBy = async (db: Kysely<DB>, pid: number) =>
  (
    await sql<{ pid: number }>`select pid from pg_stat_activity
      where ${pid} = any(pg_blocking_pids(pid)) limit 1`.execute(db)
  ).rows[0]?.pid;
