import { afterAll, beforeAll } from 'vitest';
import type { Dialect } from '../../src/db/database.js';
import { call, gameCall, signedInDeveloper, startTestApp, type TestApp, type TestAppOptions } from './app.js';

/**
 * A running app with a signed-in developer and one game, for the leaderboard suites (registers its
 * own beforeAll/afterAll), and the calls they make again and again. `options` adds to the app's
 * (a database of the suite's own, say), made when the app starts.
 */
export function boardGame(dialect: Dialect, options: () => Promise<Partial<TestAppOptions>> = async () => ({})) {
  const ctx = {} as { t: TestApp; cookie: string; game: { game_id: string; api_key: string } };
  let added: Partial<TestAppOptions> = {};
  beforeAll(async () => {
    added = await options();
    ctx.t = await startTestApp({ ...added, dialect });
    ctx.cookie = (await signedInDeveloper(ctx.t)).cookie;
    ctx.game = (await call(ctx.t.app, 'POST', '/api/games', { body: { name: 'Boards' }, cookie: ctx.cookie })).json();
  });
  afterAll(async () => {
    await ctx.t?.close();
    await added.database?.close();
  });

  const boards = (path = '') => `/api/games/${ctx.game.game_id}/leaderboards${path}`;
  const v1 = (method: Parameters<typeof gameCall>[1], url: string, opts: Parameters<typeof gameCall>[3] = {}) =>
    gameCall(ctx.t.app, method, url, { apiKey: ctx.game.api_key, gameId: ctx.game.game_id, ...opts });
  const submit = (board: string, player_name: string, score: unknown, extra: Record<string, unknown> = {}) =>
    v1('POST', `/v1/leaderboards/${board}/scores`, { body: { player_name, score, ...extra } });
  const createBoard = (body: Record<string, unknown>) =>
    call(ctx.t.app, 'POST', boards(), { body, cookie: ctx.cookie });
  return { ctx, boards, v1, submit, createBoard };
}
