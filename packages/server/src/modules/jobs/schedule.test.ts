import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { DIALECTS } from '../../../test/support/services.js';
import { PURGE_EVERY_MS } from './purge.js';
import * as store from './store.js';

const JOB = 'purge-expired';

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: the purge runs once per interval across processes (issue 20)`, () => {
    let apps: TestApp[] = [];
    beforeAll(async () => {
      // Three servers on one database stand for three processes.
      const first = await startTestApp({ dialect });
      apps = [
        first,
        await startTestApp({ dialect, database: first.database }),
        await startTestApp({ dialect, database: first.database }),
      ];
      // Their clocks agree, and the purges they started when ready are over (a check joins the one in flight).
      for (const t of apps) t.clock.advance(first.clock.now() - t.clock.now());
      for (const t of apps) await t.app.purgeIfDue();
    });
    afterAll(async () => {
      for (const t of apps.slice().reverse()) await t.close();
    });

    const db = () => apps[0]!.database.db;
    const advance = (ms: number) => apps.forEach((t) => t.clock.advance(ms));
    const checkEverywhere = () => Promise.all(apps.map((t) => t.app.purgeIfDue()));
    const subscription = (email: string, state: 'pending' | 'confirmed', expiresIn: number | null) => ({
      email,
      state,
      confirm_token_hash: expiresIn === null ? null : `hash-${email}`,
      confirm_expires_at: expiresIn === null ? null : apps[0]!.clock.now() + expiresIn,
      unsubscribe_token: `unsubscribe-${email}`,
      created_at: 0,
      updated_at: 0,
    });
    const emails = async () =>
      (await db().selectFrom('newsletter_subscriptions').select('email').orderBy('email').execute()).map(
        (r) => r.email,
      );

    it('lets exactly one process purge when the interval has passed, and the others do nothing', async () => {
      await db()
        .insertInto('newsletter_subscriptions')
        .values([
          subscription('expired-1@example.com', 'pending', -1),
          subscription('expired-2@example.com', 'pending', -1),
          subscription('live@example.com', 'pending', 86_400_000),
          subscription('confirmed@example.com', 'confirmed', null),
        ])
        .execute();

      // Within the interval of the purge at start, no process purges.
      advance(PURGE_EVERY_MS - 1_000);
      expect(await checkEverywhere()).toEqual([undefined, undefined, undefined]);
      expect(await emails()).toHaveLength(4);

      advance(1_000);
      const claimedAt = apps[0]!.clock.now();
      const results = await checkEverywhere();
      const ran = results.filter((r) => r !== undefined);
      expect(ran).toEqual([{ sessions: 0, savedSessions: 0, codes: 0, pendingSubscriptions: 2 }]);
      expect(await emails()).toEqual(['confirmed@example.com', 'live@example.com']);
      const row = await store.findJob(db(), JOB);
      expect(row).toMatchObject({ next_run_at: claimedAt + PURGE_EVERY_MS, claimed_at: claimedAt });
      expect(row!.finished_at).toBeGreaterThanOrEqual(claimedAt);

      // A second round of checks in the same interval finds nothing to claim, even with expired rows waiting.
      advance(2 * 60_000);
      expect(await checkEverywhere()).toEqual([undefined, undefined, undefined]);
      expect(await emails()).toEqual(['confirmed@example.com', 'live@example.com']);
      expect(await store.findJob(db(), JOB)).toEqual(row);
    });

    it('runs the next interval when the process that claimed a run died in it', async () => {
      advance(PURGE_EVERY_MS);
      // A process claims the due run and dies before it purges or marks it finished.
      const diedAt = apps[0]!.clock.now();
      const dead = { name: JOB, everyMs: PURGE_EVERY_MS, by: 'gone-host/4242/deadbeef' };
      expect(await store.claimDueRun(db(), dead, diedAt)).toBe(true);
      await db()
        .insertInto('newsletter_subscriptions')
        .values(subscription('left@example.com', 'pending', -1))
        .execute();

      // Its interval is lost: nobody runs it again.
      expect(await checkEverywhere()).toEqual([undefined, undefined, undefined]);
      const stuck = await store.findJob(db(), JOB);
      expect(stuck).toMatchObject({ claimed_by: dead.by, claimed_at: diedAt });
      expect(stuck!.finished_at).toBeLessThan(diedAt);

      // The next interval belongs to a living process, which purges what the dead one left.
      advance(PURGE_EVERY_MS);
      const ran = (await checkEverywhere()).filter((r) => r !== undefined);
      expect(ran).toEqual([{ sessions: 0, savedSessions: 0, codes: 0, pendingSubscriptions: 1 }]);
      expect(await emails()).not.toContain('left@example.com');
      const next = await store.findJob(db(), JOB);
      expect(next!.claimed_by).not.toBe(dead.by);
      expect(next!.finished_at).toBeGreaterThanOrEqual(diedAt + PURGE_EVERY_MS);
    });
  });
}
