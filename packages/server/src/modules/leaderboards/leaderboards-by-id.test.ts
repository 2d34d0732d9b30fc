import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../../../test/support/app.js';
import { boardGame } from '../../../test/support/boards.js';
import { openTestDatabase } from '../../../test/support/database.js';
import { DIALECTS, REDIS_SKIP, services } from '../../../test/support/services.js';
import { statementLog } from '../../../test/support/statement-log.js';

// A position or an around asked by score_id takes the score's order key from the rank index when
// it holds the score's period (from memory, or from Redis in one round trip), rather than reading
// the score's row (service.ts target).
const cases = DIALECTS.flatMap(({ dialect, skip }) => [
  { dialect, index: 'memory', skip },
  { dialect, index: 'redis', skip: skip || REDIS_SKIP },
]);
for (const { dialect, index, skip } of cases) {
  describe.skipIf(skip)(`${dialect}, ${index} index: a saved score's position and neighbours by its id`, () => {
    const { hooks, made } = statementLog();
    const redis = { env: { RANK_INDEX: 'redis', REDIS_URL: services.redisUrl! }, redis: true };
    const { ctx, boards, v1, submit, createBoard } = boardGame(dialect, async () => ({
      database: await openTestDatabase(dialect, hooks),
      ...(index === 'redis'
        ? { ...redis, rankPrefix: `howl-test:${randomUUID()}` }
        : { env: { RANK_INDEX: 'memory' } as Record<string, string> }),
    }));
    const ids: string[] = [];
    const scoresRead = (sent: string[]) => sent.filter((s) => s.includes('from "scores"'));
    /**
     * Starts loading every board's period and waits, at most 5 s, until a position by `id` and a
     * position on every board run no query of `scores`: Redis builds its sets in the background,
     * and a build still reading would show among a test's statements.
     */
    async function loaded(board: string, id: string) {
      await ctx.t.app.warmUpRanks();
      const listed = await call(ctx.t.app, 'GET', boards(), { cookie: ctx.cookie });
      const names = (listed.json().leaderboards as Array<{ name: string }>).map((b) => b.name);
      const deadline = Date.now() + 5_000;
      for (;;) {
        const sent = await made(async () => {
          for (const name of names) await v1('GET', `/v1/leaderboards/${name}/position?score=0`);
          await v1('GET', `/v1/leaderboards/${board}/position?score_id=${id}`);
        });
        if (scoresRead(sent).length === 0) return;
        if (Date.now() > deadline) throw new Error(`waited 5 s for the ${index} index to answer ${board} without SQL`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    it('answers from the index, with no read of the score, once its period is loaded', async () => {
      expect((await createBoard({ name: 'byid', max_entries: null })).statusCode).toBe(201);
      for (const [player, score] of [
        ['a player', 30],
        ['another player', 20],
        ['a third player', 10],
      ] as const) {
        const answer = await submit('byid', player, score);
        expect(answer.statusCode).toBe(200);
        ids.push(answer.json().score_id as string);
      }
      await loaded('byid', ids[1]!);
      let position: Awaited<ReturnType<typeof v1>> | undefined;
      let around: Awaited<ReturnType<typeof v1>> | undefined;
      const sent = await made(async () => {
        position = await v1('GET', `/v1/leaderboards/byid/position?score_id=${ids[1]}`);
        around = await v1('GET', `/v1/leaderboards/byid/around?score_id=${ids[1]}&count=1`);
      });
      expect(position!.json()).toMatchObject({ position: 2 });
      expect(around!.json()).toMatchObject({
        position: 2,
        scores_above: [{ score_id: ids[0], position: 1 }],
        scores_below: [{ score_id: ids[2], position: 3 }],
      });
      expect(scoresRead(sent)).toEqual([]);
    });

    it('follows a better score at once, and answers 404 for a deleted score or one of another period', async () => {
      expect((await createBoard({ name: 'best', max_entries: null, insert_option: 'highest' })).statusCode).toBe(201);
      const first = (await submit('best', 'a player', 5)).json().score_id as string;
      await submit('best', 'another player', 10);
      await loaded('best', first);
      expect((await v1('GET', `/v1/leaderboards/best/position?score_id=${first}`)).json()).toMatchObject({
        position: 2,
      });
      // The better score replaces the entry under the same id; the next position reads it from the index.
      const better = (await submit('best', 'a player', 50)).json();
      expect(better).toMatchObject({ score_id: first, position: 1 });
      expect((await v1('GET', `/v1/leaderboards/best/position?score_id=${first}`)).json()).toMatchObject({
        position: 1,
      });
      const deleted = await call(ctx.t.app, 'POST', `/api/games/${ctx.game.game_id}/scores/delete`, {
        body: { score_ids: [first] },
        cookie: ctx.cookie,
      });
      expect(deleted.json()).toEqual({ deleted: 1 });
      const gone = await v1('GET', `/v1/leaderboards/best/position?score_id=${first}`);
      expect([gone.statusCode, gone.json().error.code]).toEqual([404, 'ScoreNotFound']);
      // A score of this week on a weekly board, asked of last week.
      expect((await createBoard({ name: 'weekly', time_based: 'weekly', timezone: 'UTC' })).statusCode).toBe(201);
      const thisWeek = (await submit('weekly', 'a player', 7)).json().score_id as string;
      await loaded('weekly', thisWeek);
      const asked = (offset: number) =>
        v1('GET', `/v1/leaderboards/weekly/position?score_id=${thisWeek}&period_offset=${offset}`);
      expect((await asked(0)).json()).toMatchObject({ position: 1 });
      const lastWeek = await asked(-1);
      expect([lastWeek.statusCode, lastWeek.json().error]).toEqual([
        404,
        {
          code: 'ScoreNotFound',
          message: 'This score was saved in another period of this leaderboard than the one asked for.',
        },
      ]);
    });
  });
}
