import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { gameCall } from '../../test/support/app.js';
import { playerGame } from '../../test/support/players.js';
import { registeredRoutes } from '../../test/support/routes.js';
import { DIALECTS } from '../../test/support/services.js';
import { swCall } from '../../test/support/silentwolf.js';
import { SILENTWOLF_PATHS } from '../modules/compat-silentwolf/front-door.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Game = { game_id: string; api_key: string };

/** The game API: `/v1` and the SilentWolf paths, as the route table has them. */
const isGameRoute = (route: string) => {
  const path = route.split(' ')[1]!;
  return path.startsWith('/v1/') || SILENTWOLF_PATHS.has(path.split('/')[1]!);
};

/** The error code of an answer in either protocol (`/v1`'s envelope, or the SilentWolf `code`). */
const codeOf = (res: LightMyRequestResponse) => {
  const body = res.json() as { error?: { code?: string } | string; code?: string };
  return typeof body.error === 'object' ? body.error.code : body.code;
};

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: the game API's ownership matrix`, () => {
    const { ctx, newGame, console: consoleCall, settings, v1, loggedIn } = playerGame(dialect);
    let mine: Game;
    let theirs: Game;
    let owner: Awaited<ReturnType<typeof loggedIn>>;
    let other: Awaited<ReturnType<typeof loggedIn>>;
    let scoreId: string;

    const scoresOf = async (game: Game) =>
      (
        await gameCall(ctx.t.app, 'GET', '/v1/leaderboards/main/scores', { apiKey: game.api_key, gameId: game.game_id })
      ).json().scores as Array<{ score_id: string; player_name: string; score: number }>;
    const dataOf = async (game: Game, player: string) =>
      (
        await gameCall(ctx.t.app, 'GET', `/v1/player-data/${player}`, { apiKey: game.api_key, gameId: game.game_id })
      ).json() as { player_data: unknown; version: number };

    beforeAll(async () => {
      mine = ctx.game;
      theirs = await newGame('Theirs');
      for (const game of [mine, theirs]) {
        const res = await consoleCall('PATCH', '', { allow_client_deletes: true }, game.game_id);
        expect(res.statusCode, res.body).toBe(200);
      }
      expect((await settings({ require_player_session: true })).statusCode).toBe(200);
      owner = await loggedIn('owner');
      other = await loggedIn('other');
      const saved = await v1('POST', '/v1/leaderboards/main/scores', {
        body: { player_name: owner.name, score: 50 },
        token: owner.access_token,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      scoreId = saved.json().score_id;
      const put = await v1('PUT', `/v1/player-data/${owner.name}`, {
        body: { player_data: { gold: 1 } },
        token: owner.access_token,
      });
      expect(put.statusCode, put.body).toBe(200);
    });

    /** Values for every path parameter a game route has; a new parameter fails the matrix until named here. */
    const paramValues = (): Record<string, string> => ({
      name: 'main',
      player: owner.name,
      playerName: owner.name,
      character: 'hero',
      scoreId,
      gameId: mine.game_id,
    });

    it("answers every game route 403 InvalidApiKey for another game's key, and changes nothing", async () => {
      const routes = registeredRoutes(ctx.t.app).filter(isGameRoute);
      expect(routes.length).toBeGreaterThan(40);
      const wrong: string[] = [];
      for (const route of routes) {
        const [method, pattern] = route.split(' ') as [Method, string];
        const url = pattern.replace(/:(\w+)/g, (_, param: string) => {
          const value = paramValues()[param];
          if (value === undefined) throw new Error(`no value for :${param} in ${route}`);
          return encodeURIComponent(value);
        });
        const query = method === 'GET' ? `?game_id=${mine.game_id}&score_id=${scoreId}` : '';
        // My game's id with their key, everywhere the protocols name a game, and a body each route would accept.
        const res = await gameCall(ctx.t.app, method, url + query, {
          apiKey: theirs.api_key,
          gameId: mine.game_id,
          headers: { 'x-sw-game-id': mine.game_id },
          ...(method === 'GET'
            ? {}
            : {
                body: {
                  game_id: mine.game_id,
                  player_name: owner.name,
                  score: 99,
                  score_id: scoreId,
                  player_data: { gold: 2 },
                },
              }),
        });
        if (res.statusCode !== 403 || codeOf(res) !== 'InvalidApiKey')
          wrong.push(`${route}: ${res.statusCode} ${res.body}`);
      }
      expect(wrong).toEqual([]);
      expect((await scoresOf(mine)).map((s) => [s.score_id, s.score])).toEqual([[scoreId, 50]]);
      expect(await dataOf(mine, owner.name)).toMatchObject({ player_data: { gold: 1 }, version: 1 });
    });

    it("reaches none of my game's rows with their own valid key", async () => {
      const as = (method: Method, url: string, body?: unknown) =>
        gameCall(ctx.t.app, method, url, {
          apiKey: theirs.api_key,
          gameId: theirs.game_id,
          ...(body === undefined ? {} : { body }),
        });
      expect([
        (await as('DELETE', `/v1/scores/${scoreId}`)).statusCode,
        codeOf(await as('DELETE', `/v1/scores/${scoreId}`)),
      ]).toEqual([404, 'ScoreNotFound']);
      const swDelete = await swCall(
        ctx.t,
        theirs,
        'GET',
        `/delete_score?game_id=${theirs.game_id}&score_id=${scoreId}`,
      );
      expect(swDelete.statusCode).toBe(404);
      expect(await dataOf(theirs, owner.name)).toMatchObject({ player_data: {}, version: 0 });
      // A session of my game is no session in theirs.
      const me = await gameCall(ctx.t.app, 'GET', '/v1/players/me', {
        apiKey: theirs.api_key,
        gameId: theirs.game_id,
        headers: { authorization: `Bearer ${owner.access_token}` },
      });
      expect([me.statusCode, codeOf(me)]).toEqual([401, 'SessionExpired']);
      expect((await scoresOf(mine)).map((s) => s.score_id)).toEqual([scoreId]);
      expect(await dataOf(mine, owner.name)).toMatchObject({ player_data: { gold: 1 }, version: 1 });
    });

    /** Every write a client can make under a player's name, in both protocols. */
    const writesUnderName = (name: string): Array<[string, Method, string, Record<string, unknown>?]> => [
      ['/v1', 'POST', '/v1/leaderboards/main/scores', { player_name: name, score: 99 }],
      ['/v1', 'PUT', `/v1/player-data/${name}`, { player_data: { gold: 2 } }],
      ['/v1', 'DELETE', `/v1/player-data/${name}`],
      ['/v1', 'PUT', `/v1/player-data/${name}/characters/hero`, { player_data: { hp: 1 } }],
      ['/v1', 'DELETE', `/v1/player-data/${name}/characters/hero`],
      ['sw', 'POST', '/save_score', { player_name: name, score: 99 }],
      ['sw', 'POST', '/post_new_score', { player_name: name, score: 99 }],
      ['sw', 'POST', '/push_player_data', { player_name: name, player_data: { gold: 2 } }],
      ['sw', 'POST', '/remove_player_data', { player_name: name, player_data: { gold: '' } }],
    ];

    it('lists every route that writes under a named player', () => {
      const named = registeredRoutes(ctx.t.app).filter(
        (r) => isGameRoute(r) && /:player\b/.test(r) && !r.startsWith('GET '),
      );
      const listed = new Set(writesUnderName(':player').map(([, method, url]) => `${method} ${url}`));
      expect(named.filter((r) => !listed.has(r.replace(':character', 'hero')))).toEqual([]);
    });

    it("refuses every write under a registered player's name with another player's session", async () => {
      const wrong: string[] = [];
      for (const [protocol, method, url, body] of writesUnderName(owner.name)) {
        const res =
          protocol === '/v1'
            ? await v1(method, url, { token: other.access_token, ...(body === undefined ? {} : { body }) })
            : await swCall(ctx.t, mine, method as 'POST', url, {
                token: other.access_token,
                ...(body ? { body } : {}),
              });
        if (res.statusCode !== 401 || codeOf(res) !== 'PlayerSessionRequired')
          wrong.push(`${method} ${url}: ${res.statusCode} ${res.body}`);
      }
      expect(wrong).toEqual([]);
      expect((await scoresOf(mine)).map((s) => [s.player_name, s.score])).toEqual([[owner.name, 50]]);
      expect(await dataOf(mine, owner.name)).toMatchObject({ player_data: { gold: 1 }, version: 1 });
      // The other player's own session still answers as that player, and ends only its own.
      expect((await v1('GET', '/v1/players/me', { token: other.access_token })).json().player_name).toBe(other.name);
      expect((await v1('POST', '/v1/players/logout', { token: other.access_token, body: {} })).statusCode).toBe(200);
      expect((await v1('GET', '/v1/players/me', { token: owner.access_token })).statusCode).toBe(200);
    });
  });
}
