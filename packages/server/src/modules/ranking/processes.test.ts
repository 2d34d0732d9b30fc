import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, gameCall, signedInDeveloper, startTestApp, type TestApp } from '../../../test/support/app.js';
import { DIALECTS, REDIS_SKIP, services } from '../../../test/support/services.js';

interface Game {
  game_id: string;
  api_key: string;
}

const v1 = (t: TestApp, game: Game, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
  gameCall(t.app, method, url, { apiKey: game.api_key, gameId: game.game_id, ...(body === undefined ? {} : { body }) });

/** Waits until a board's index answers from its own structure (SQL answers while it loads). */
async function warm(t: TestApp, game: Game, board: string) {
  await v1(t, game, 'GET', `/v1/leaderboards/${board}/scores?max=1`);
  await new Promise((resolve) => setTimeout(resolve, 100));
}

describe.skipIf(DIALECTS[1]!.skip || REDIS_SKIP)('postgres + redis: two server processes share ranks', () => {
  let a: TestApp;
  let b: TestApp;
  let game: Game;
  let cookie: string;
  beforeAll(async () => {
    const env = { REDIS_URL: services.redisUrl!, RANK_INDEX: 'redis' };
    const rankPrefix = `howl-test:${randomUUID()}`;
    a = await startTestApp({ dialect: 'postgres', redis: true, env, rankPrefix });
    b = await startTestApp({ dialect: 'postgres', redis: true, env, rankPrefix, database: a.database });
    cookie = (await signedInDeveloper(a)).cookie;
    game = (await call(a.app, 'POST', '/api/games', { body: { name: 'Shared' }, cookie })).json();
    await call(a.app, 'POST', `/api/games/${game.game_id}/leaderboards`, {
      body: { name: 'shared', max_entries: null },
      cookie,
    });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('ranks a score saved through one process identically on the other, once its notice is heard', async () => {
    await warm(a, game, 'shared');
    for (let i = 0; i < 30; i++) {
      const [writer, reader] = i % 2 ? [a, b] : [b, a];
      const saved = (
        await v1(writer, game, 'POST', '/v1/leaderboards/shared/scores', { player_name: `p${i}`, score: (i * 7) % 11 })
      ).json();
      // The reader's kept top rows follow the writer's notice (one Redis delivery; the test waits for it).
      await reader.app.invalidationsHeard();
      const seen = (
        await v1(reader, game, 'GET', `/v1/leaderboards/shared/position?score_id=${saved.score_id}`)
      ).json();
      expect(seen.position).toBe(saved.position);
    }
    const fromA = (await v1(a, game, 'GET', '/v1/leaderboards/shared/scores?max=0')).json().scores;
    const fromB = (await v1(b, game, 'GET', '/v1/leaderboards/shared/scores?max=0')).json().scores;
    expect(fromA).toHaveLength(30);
    expect(fromB).toEqual(fromA);
  });

  it("shows another process's new best, deletes and wipe in the top rows it keeps", async () => {
    await call(a.app, 'POST', `/api/games/${game.game_id}/leaderboards`, { body: { name: 'top' }, cookie });
    await call(a.app, 'PATCH', `/api/games/${game.game_id}`, { body: { allow_client_deletes: true }, cookie });
    const top = async (t: TestApp) =>
      (await v1(t, game, 'GET', '/v1/leaderboards/top/scores?max=3'))
        .json()
        .scores.map((s: { player_name: string; score: number }) => `${s.player_name}:${s.score}`);
    for (let i = 0; i < 20; i++)
      await v1(a, game, 'POST', '/v1/leaderboards/top/scores', { player_name: `p${i}`, score: i });
    await b.app.invalidationsHeard();
    expect(await top(b)).toEqual(['p19:19', 'p18:18', 'p17:17']);
    // Asked twice: the second answer comes from the rows b keeps, which a's next save must reach.
    expect(await top(b)).toEqual(['p19:19', 'p18:18', 'p17:17']);

    const best = (await v1(a, game, 'POST', '/v1/leaderboards/top/scores', { player_name: 'best', score: 99 })).json();
    await b.app.invalidationsHeard();
    expect(await top(b)).toEqual(['best:99', 'p19:19', 'p18:18']);

    expect((await v1(a, game, 'DELETE', `/v1/scores/${best.score_id}`)).statusCode).toBe(200);
    await b.app.invalidationsHeard();
    expect(await top(b)).toEqual(['p19:19', 'p18:18', 'p17:17']);

    // And the other way round: b's save reaches the rows a keeps.
    expect(await top(a)).toEqual(['p19:19', 'p18:18', 'p17:17']);
    await v1(b, game, 'POST', '/v1/leaderboards/top/scores', { player_name: 'second', score: 18.5 });
    await a.app.invalidationsHeard();
    expect(await top(a)).toEqual(['p19:19', 'second:18.5', 'p18:18']);

    expect((await v1(a, game, 'DELETE', '/v1/leaderboards/top/scores')).statusCode).toBe(200);
    await b.app.invalidationsHeard();
    expect(await top(b)).toEqual([]);
  });
});

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: a restart rebuilds the in-process index`, () => {
    let first: TestApp;
    let game: Game;
    beforeAll(async () => {
      first = await startTestApp({ dialect, env: { RANK_INDEX: 'memory' } });
      const { cookie } = await signedInDeveloper(first);
      game = (await call(first.app, 'POST', '/api/games', { body: { name: 'Restart' }, cookie })).json();
      await call(first.app, 'POST', `/api/games/${game.game_id}/leaderboards`, {
        body: { name: 'r', max_entries: 100 },
        cookie,
      });
    });
    afterAll(() => first?.database.close());

    it('answers the same ranks after a restart as before', async () => {
      await warm(first, game, 'r');
      for (let i = 0; i < 60; i++)
        await v1(first, game, 'POST', '/v1/leaderboards/r/scores', { player_name: `p${i % 13}`, score: (i * 5) % 17 });
      const ask = async (t: TestApp) => ({
        all: (await v1(t, game, 'GET', '/v1/leaderboards/r/scores?max=0')).json().scores,
        around: (await v1(t, game, 'GET', '/v1/leaderboards/r/around?score=8&count=5')).json(),
        position: (await v1(t, game, 'GET', '/v1/leaderboards/r/position?score=3')).json(),
      });
      const before = await ask(first);
      await first.app.close();

      const second = await startTestApp({ dialect, env: { RANK_INDEX: 'memory' }, database: first.database });
      try {
        // What main.ts does after listening: every board's current period starts loading.
        expect(await second.app.warmUpRanks()).toBe(2);
        await warm(second, game, 'r');
        expect(await ask(second)).toEqual(before);
      } finally {
        await second.close();
      }
    });
  });
}
