import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Adds the job's row, due now, unless some process already did. */
export async function ensureJob(db: Kysely<DB>, name: string, now: number): Promise<void> {
  await db
    .insertInto('scheduled_jobs')
    .values({ name, next_run_at: now, claimed_at: null, claimed_by: null, finished_at: null })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/**
 * Claims the run that is due, if any: one conditional UPDATE, so of all processes sharing the
 * database exactly one moves next_run_at on and answers true. A claimer that dies mid-run only
 * costs that run; the next one is due `everyMs` later all the same.
 */
export async function claimDueRun(
  db: Kysely<DB>,
  job: { name: string; everyMs: number; by: string },
  now: number,
): Promise<boolean> {
  const res = await db
    .updateTable('scheduled_jobs')
    .set({ next_run_at: now + job.everyMs, claimed_at: now, claimed_by: job.by })
    .where('name', '=', job.name)
    .where('next_run_at', '<=', now)
    .executeTakeFirst();
  return res.numUpdatedRows === 1n;
}

/** Marks the run this process claimed at `claimedAt` as finished. */
export async function finishRun(
  db: Kysely<DB>,
  job: { name: string; by: string },
  claimedAt: number,
  now: number,
): Promise<void> {
  await db
    .updateTable('scheduled_jobs')
    .set({ finished_at: now })
    .where('name', '=', job.name)
    .where('claimed_by', '=', job.by)
    .where('claimed_at', '=', claimedAt)
    .execute();
}

export function findJob(db: Kysely<DB>, name: string) {
  return db.selectFrom('scheduled_jobs').selectAll().where('name', '=', name).executeTakeFirst();
}
