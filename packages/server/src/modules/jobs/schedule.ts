import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { hostname } from 'node:os';
import type { DB } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/tokens.js';
import * as store from './store.js';

/** How often each process asks whether a job is due: a run starts at most this late. */
const CHECK_EVERY_MS = 60_000;

export interface ScheduledJob<T> {
  /** The job's row in scheduled_jobs. */
  name: string;
  everyMs: number;
  run(): Promise<T>;
}

/**
 * Runs `job` once per `everyMs` across every process sharing the database (scheduled_jobs holds
 * when it is next due; store.claimDueRun picks one process). Each process checks once it is ready
 * and every minute after, one check at a time; app.close() waits for a run in flight. Answers the
 * check, which resolves to the run's result, or undefined when the run was not due or another
 * process has it.
 */
export function scheduleJob<T>(
  app: FastifyInstance,
  deps: { db: Kysely<DB>; clock: Clock },
  job: ScheduledJob<T>,
): () => Promise<T | undefined> {
  const { db, clock } = deps;
  // Names the claimer in the row: which host and process ran the last run.
  const me = { name: job.name, everyMs: job.everyMs, by: `${hostname()}/${process.pid}/${newId().slice(0, 8)}` };
  let registered: Promise<void> | undefined;
  let running: Promise<T | undefined> | undefined;

  const runIfDue = async () => {
    registered ??= store.ensureJob(db, job.name, clock.now()).catch((err: unknown) => {
      registered = undefined;
      throw err;
    });
    await registered;
    const claimedAt = clock.now();
    if (!(await store.claimDueRun(db, me, claimedAt))) return undefined;
    const result = await job.run();
    await store.finishRun(db, me, claimedAt, clock.now());
    return result;
  };
  const check = () => (running ??= runIfDue().finally(() => (running = undefined)));
  const checkLogged = () => {
    check().catch((err: unknown) => app.log.error({ err }, `the scheduled job ${job.name} failed`));
  };

  const timer = setInterval(checkLogged, CHECK_EVERY_MS).unref();
  app.addHook('onReady', async () => checkLogged());
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running?.catch(() => undefined);
  });
  return check;
}
