import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, gameCall, signedInDeveloper, startTestApp, type TestApp } from '../../../test/support/app.js';
import { DIALECTS, REDIS_SKIP, services } from '../../../test/support/services.js';

// Regression tests of issue 14: concurrent writes that lost scores, left a board short, or made
// ranks disagree with the database. Each runs on both databases and both shared-state indexes.
const SETUPS: Array<{
  dialect: (typeof DIALECTS)[number]['dialect'];
  index: string;
  skip: string | false;
  env: Record<string, string>;
}> = DIALECTS.flatMap(({ dialect, skip }) => [
  { dialect, index: 'memory', skip, env: { RANK_INDEX: 'memory' } as Record<string, string> },
  {
    dialect,
    index: 'redis',
    skip: skip || REDIS_SKIP,
    env: { RANK_INDEX: 'redis', REDIS_URL: services.redisUrl ?? '' },
  },
]);

for (const { dialect, index, skip, env } of SETUPS) {
  describe.skipIf(skip)(`${dialect}, ${index} index: concurrent score writes`, () => {
    let t: TestApp;
    let cookie: string;
    let game: { game_id: string; api_key: string };
    beforeAll(async () => {
      t = await startTestApp({ dialect, env, redis: index === 'redis', rankPrefix: `howl-test:${randomUUID()}` });
      cookie = (await signedInDeveloper(t)).cookie;
      game = (await call(t.app, 'POST', '/api/games', { body: { name: 'Races' }, cookie })).json();
      await call(t.app, 'PATCH', `/api/games/${game.game_id}`, { body: { allow_client_deletes: true }, cookie });
    });
    afterAll(() => t?.close());

    const v1 = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
      gameCall(t.app, method, url, {
        apiKey: game.api_key,
        gameId: game.game_id,
        ...(body === undefined ? {} : { body }),
      });
    const board = async (name: string, settings: Record<string, unknown>) => {
      const res = await call(t.app, 'POST', `/api/games/${game.game_id}/leaderboards`, {
        body: { name, ...settings },
        cookie,
      });
      expect(res.statusCode).toBe(201);
      // Loaded into the index before the races start, so it answers from its own structure.
      await v1('GET', `/v1/leaderboards/${name}/scores?max=1`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    };
    const all = async (name: string) =>
      (await v1('GET', `/v1/leaderboards/${name}/scores?max=0`)).json().scores as Array<{
        score_id: string;
        player_name: string;
        score: number;
        position: number;
      }>;
    const stored = (boardName: string) =>
      t.database.db
        .selectFrom('scores')
        .innerJoin('leaderboards', 'leaderboards.id', 'scores.leaderboard_id')
        .select(['scores.player_name', 'scores.score', 'scores.id'])
        .where('leaderboards.game_id', '=', game.game_id)
        .where('leaderboards.name', '=', boardName)
        .execute();

    it('never trims a score that a concurrent save improved, and keeps the board full (latest, max 10)', async () => {
      await board('latest10', { insert_option: 'latest', max_entries: 10 });
      for (let round = 0; round < 6; round++) {
        // Ten players fill the board; the last of them then improves while newcomers push in.
        for (let i = 0; i < 10; i++)
          await v1('POST', '/v1/leaderboards/latest10/scores', { player_name: `r${round}p${i}`, score: 100 + i });
        const results = await Promise.all([
          v1('POST', '/v1/leaderboards/latest10/scores', { player_name: `r${round}p0`, score: 1000 }),
          ...Array.from({ length: 12 }, (_, i) =>
            v1('POST', '/v1/leaderboards/latest10/scores', { player_name: `r${round}new${i}`, score: 150 + i }),
          ),
        ]);
        expect(results.map((r) => r.statusCode)).toEqual(results.map(() => 200));
        const rows = await stored('latest10');
        expect(rows).toHaveLength(10);
        expect(rows).toContainEqual(expect.objectContaining({ player_name: `r${round}p0`, score: 1000 }));
        const shown = await all('latest10');
        expect(shown.map((s) => s.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        expect(shown[0]).toMatchObject({ player_name: `r${round}p0`, score: 1000 });
        expect(shown.map((s) => s.score_id).sort()).toEqual(rows.map((r) => r.id).sort());
        await call(t.app, 'DELETE', `/api/games/${game.game_id}/leaderboards/latest10/scores`, { cookie });
      }
    });

    it('answers no 500 and keeps the index equal to the database under submits, deletes and wipes at once (max 10)', async () => {
      await board('mixed', { max_entries: 10 });
      for (let round = 0; round < 4; round++) {
        const saved: string[] = [];
        for (let i = 0; i < 10; i++)
          saved.push(
            (await v1('POST', '/v1/leaderboards/mixed/scores', { player_name: `m${i}`, score: i })).json().score_id,
          );
        const calls = Array.from({ length: 24 }, (_, i) =>
          i % 8 === 7
            ? v1('DELETE', '/v1/leaderboards/mixed/scores')
            : i % 3 === 2
              ? v1('DELETE', `/v1/scores/${saved[i % saved.length]}`)
              : v1('POST', '/v1/leaderboards/mixed/scores', { player_name: `n${i}`, score: (i * 7) % 13 }),
        );
        const statuses = (await Promise.all(calls)).map((r) => r.statusCode);
        expect(statuses.filter((s) => s >= 500)).toEqual([]);
        const rows = await stored('mixed');
        expect(rows.length).toBeLessThanOrEqual(10);
        const shown = await all('mixed');
        expect(shown.map((s) => s.score_id).sort()).toEqual(rows.map((r) => r.id).sort());
        for (const s of shown) {
          const asked = (await v1('GET', `/v1/leaderboards/mixed/position?score_id=${s.score_id}`)).json();
          expect(asked.position).toBe(s.position);
        }
      }
    });

    it('answers no 500 when the console deletes entries of an unlimited board that saves are updating', async () => {
      await board('open', { insert_option: 'latest', max_entries: null });
      const players = Array.from({ length: 8 }, (_, i) => `o${i}`);
      for (let round = 0; round < 6; round++) {
        const ids: string[] = [];
        for (const player_name of players)
          ids.push((await v1('POST', '/v1/leaderboards/open/scores', { player_name, score: round })).json().score_id);
        // The saves update the players' entries in arrival order; the deletes take them in their own.
        const answers = await Promise.all([
          ...players.map((player_name, i) =>
            v1('POST', '/v1/leaderboards/open/scores', { player_name, score: 100 + round + i }),
          ),
          call(t.app, 'POST', `/api/games/${game.game_id}/scores/delete`, { body: { score_ids: ids }, cookie }),
          ...[...players]
            .reverse()
            .map((player_name) => v1('POST', '/v1/leaderboards/open/scores', { player_name, score: 200 + round })),
        ]);
        expect(answers.map((r) => r.statusCode).filter((s) => s !== 200)).toEqual([]);
        const rows = await stored('open');
        expect((await all('open')).map((s) => s.score_id).sort()).toEqual(rows.map((r) => r.id).sort());
      }
    });

    it('counts a value against the whole board right after a settings change (not a half-built set)', async () => {
      await board('settings', { max_entries: null });
      for (let i = 0; i < 12; i++)
        await v1('POST', '/v1/leaderboards/settings/scores', { player_name: `s${i}`, score: 10 * i });
      await call(t.app, 'PUT', `/api/games/${game.game_id}/leaderboards/settings`, {
        body: { display_name: 'Renamed', max_entries: 1000 },
        cookie,
      });
      await v1('POST', '/v1/leaderboards/settings/scores', { player_name: 'late', score: 5 });
      // Scores 60..110 rank above 50 (six of them) and a submitted 50 ties after the stored one: eighth.
      for (let i = 0; i < 3; i++) {
        expect((await v1('GET', '/v1/leaderboards/settings/position?score=50')).json().position).toBe(8);
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
    });

    it('keeps one entry per player after the save mode changes from keep, and counts what the board shows', async () => {
      await board('modes', { max_entries: null });
      for (const score of [20, 10, 7]) {
        t.clock.advance(1000);
        await v1('POST', '/v1/leaderboards/modes/scores', { player_name: 'same', score });
      }
      await v1('POST', '/v1/leaderboards/modes/scores', { player_name: 'other', score: 15 });
      const put = await call(t.app, 'PUT', `/api/games/${game.game_id}/leaderboards/modes`, {
        body: { insert_option: 'latest' },
        cookie,
      });
      expect(put.statusCode).toBe(200);
      // `latest` keeps the latest of the player's entries: the 7.
      expect((await all('modes')).map((s) => [s.player_name, s.score])).toEqual([
        ['other', 15],
        ['same', 7],
      ]);
      await v1('POST', '/v1/leaderboards/modes/scores', { player_name: 'same', score: 30 });
      expect((await all('modes')).map((s) => [s.player_name, s.score])).toEqual([
        ['same', 30],
        ['other', 15],
      ]);
      expect((await stored('modes')).filter((r) => r.player_name === 'same')).toHaveLength(1);
      const listed = (await call(t.app, 'GET', `/api/games/${game.game_id}/leaderboards`, { cookie })).json();
      expect(listed.leaderboards.find((b: { name: string }) => b.name === 'modes').entry_count).toBe(2);
    });

    it("sums a player's entries into one when the save mode changes to accumulator, held at the score range's end", async () => {
      await board('summed', { max_entries: null });
      for (const [player, score] of [
        ['big', 9e14],
        ['big', 9e14],
        ['small', 2],
        ['small', 3],
      ] as const) {
        t.clock.advance(1000);
        await v1('POST', '/v1/leaderboards/summed/scores', { player_name: player, score });
      }
      const put = await call(t.app, 'PUT', `/api/games/${game.game_id}/leaderboards/summed`, {
        body: { insert_option: 'accumulator' },
        cookie,
      });
      expect(put.statusCode).toBe(200);
      expect((await all('summed')).map((s) => [s.player_name, s.score])).toEqual([
        ['big', 1e15],
        ['small', 5],
      ]);
    });

    it('counts only the current period of a board that now resets', async () => {
      await board('periods', { max_entries: null });
      for (let i = 0; i < 3; i++)
        await v1('POST', '/v1/leaderboards/periods/scores', { player_name: `q${i}`, score: i });
      await call(t.app, 'PUT', `/api/games/${game.game_id}/leaderboards/periods`, {
        body: { time_based: 'daily', timezone: 'Europe/London' },
        cookie,
      });
      await v1('POST', '/v1/leaderboards/periods/scores', { player_name: 'today', score: 1 });
      const listed = (await call(t.app, 'GET', `/api/games/${game.game_id}/leaderboards`, { cookie })).json();
      expect(listed.leaderboards.find((b: { name: string }) => b.name === 'periods').entry_count).toBe(1);
    });
  });
}

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: creating leaderboards in parallel`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ dialect });
    });
    afterAll(() => t?.close());

    it('stops at 100 boards however many creates run at once', async () => {
      const { cookie } = await signedInDeveloper(t);
      const game = (await call(t.app, 'POST', '/api/games', { body: { name: 'Many' }, cookie })).json();
      for (let i = 1; i < 96; i++)
        await call(t.app, 'POST', `/api/games/${game.game_id}/leaderboards`, { body: { name: `b${i}` }, cookie });
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(t.app, 'POST', `/api/games/${game.game_id}/leaderboards`, { body: { name: `c${i}` }, cookie }),
        ),
      );
      expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(4);
      expect(answers.filter((a) => a.statusCode === 409).map((a) => a.json().error.code)).toEqual(
        Array(16).fill('LeaderboardLimitReached'),
      );
      const listed = (await call(t.app, 'GET', `/api/games/${game.game_id}/leaderboards`, { cookie })).json();
      expect(listed.leaderboards).toHaveLength(100);
    });
  });
}
