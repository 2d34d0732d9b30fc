import { Migrator, sql } from 'kysely';
import { migrations } from '../../db/migrations/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../db/schema.js';
import {
  call,
  gameCall,
  signedInDeveloper,
  startTestApp,
  STRONG_PASSWORD,
  type TestApp,
} from '../../../test/support/app.js';
import { migratingBesideOthers } from '../../../test/support/database.js';
import { DIALECTS, services } from '../../../test/support/services.js';
import { createIdentity } from '../identity/service.js';
import { createPasswordHasher } from '../../lib/password-hasher.js';
import { memoryLimiters } from '../../lib/rate-limits.js';
import { playerPoolId } from './service.js';

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: games (/api/games)`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ dialect });
    });
    afterAll(() => t?.close());

    const createGame = (cookie: string, name: unknown) => call(t.app, 'POST', '/api/games', { body: { name }, cookie });

    /** A signed-in developer who already owns `count` games, written straight to the database. */
    async function developerWithGames(count: number) {
      const developer = await signedInDeveloper(t);
      const owner = await t.database.db
        .selectFrom('identity_users')
        .select('id')
        .where('username', '=', developer.email)
        .executeTakeFirstOrThrow();
      const rows = Array.from({ length: count }, (_, i) => ({
        id: `${owner.id}-${i}`,
        owner_id: owner.id,
        name: `G${i}`,
        api_key: `k-${owner.id}-${i}`,
        created_at: i,
      }));
      await t.database.db.insertInto('games').values(rows).execute();
      return developer;
    }

    describe('POST /api/games', () => {
      it('creates a game with an alphanumeric id and a 256-bit key, and makes it current', async () => {
        const { cookie } = await signedInDeveloper(t);
        const res = await createGame(cookie, '  Space Wolves  ');
        expect(res.statusCode).toBe(201);
        const { game_id, api_key } = res.json();
        expect(game_id).toMatch(/^[A-Za-z0-9]{16}$/);
        expect(api_key).toMatch(/^howl_[A-Za-z0-9]{43}$/);
        const list = (await call(t.app, 'GET', '/api/games', { cookie })).json();
        expect(list).toEqual({
          games: [{ game_id, name: 'Space Wolves', created_at: expect.any(String) }],
          current_game_id: game_id,
        });
        const session = (await call(t.app, 'GET', '/api/auth/session', { cookie })).json();
        expect(session).toMatchObject({ games: list.games, current_game_id: game_id });
      });

      it.each([
        ['an empty name', '   ', 'Please enter a name for your game.'],
        ['a missing name', undefined, 'Please enter a name for your game.'],
        ['a name over 64 characters', 'x'.repeat(65), 'Game names can be at most 64 characters.'],
        ['a name that is a number', 123, 'The game name must be text.'],
      ])('answers 400 InvalidParameter for %s', async (_what, name, message) => {
        const { cookie } = await signedInDeveloper(t);
        const res = await createGame(cookie, name);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toEqual({ code: 'InvalidParameter', message, field: 'name' });
      });

      it('accepts a name of exactly 64 characters', async () => {
        const { cookie } = await signedInDeveloper(t);
        expect((await createGame(cookie, 'x'.repeat(64))).statusCode).toBe(201);
      });

      it('answers 401 NotAuthorized when signed out', async () => {
        const res = await call(t.app, 'POST', '/api/games', { body: { name: 'A' } });
        expect([res.statusCode, res.json().error.code]).toEqual([401, 'NotAuthorized']);
      });

      it('refuses a 101st game with 409 GameLimitReached', async () => {
        const { cookie } = await developerWithGames(100);
        const res = await createGame(cookie, 'One too many');
        expect([res.statusCode, res.json().error.code]).toEqual([409, 'GameLimitReached']);
      });
    });

    describe('switching, reading and updating', () => {
      it('lists games oldest first and switches the current one', async () => {
        const { cookie } = await signedInDeveloper(t);
        const a = (await createGame(cookie, 'A')).json().game_id;
        t.clock.advance(1);
        const b = (await createGame(cookie, 'B')).json().game_id;
        const listed = (await call(t.app, 'GET', '/api/games', { cookie })).json();
        expect(listed.games.map((g: { game_id: string }) => g.game_id)).toEqual([a, b]);
        expect(listed.current_game_id).toBe(b);
        const res = await call(t.app, 'PUT', '/api/games/current', { body: { game_id: a }, cookie });
        expect(res.statusCode).toBe(200);
        expect(res.json().current_game_id).toBe(a);
      });

      it('answers the game with its settings and takes a new name and allow_client_deletes', async () => {
        const { cookie } = await signedInDeveloper(t);
        const id = (await createGame(cookie, 'Old')).json().game_id;
        const game = (await call(t.app, 'GET', `/api/games/${id}`, { cookie })).json();
        expect(game).toEqual({
          game_id: id,
          name: 'Old',
          created_at: expect.any(String),
          player_auth_enabled: false,
          reg_type: 'email_un_pwd',
          email_conf_enabled: true,
          latest_plugin_version: null,
          latest_engine: null,
          allow_client_deletes: false,
        });
        const patched = await call(t.app, 'PATCH', `/api/games/${id}`, {
          body: { name: ' New ', allow_client_deletes: true },
          cookie,
        });
        expect(patched.json()).toMatchObject({ name: 'New', allow_client_deletes: true });
        expect((await call(t.app, 'GET', `/api/games/${id}`, { cookie })).json()).toMatchObject({
          name: 'New',
          allow_client_deletes: true,
        });
        const empty = await call(t.app, 'PATCH', `/api/games/${id}`, { body: {}, cookie });
        const refusal = [400, { code: 'InvalidParameter', message: 'Send name or allow_client_deletes.' }];
        expect([empty.statusCode, empty.json().error]).toEqual(refusal);
        const list = await call(t.app, 'PATCH', `/api/games/${id}`, { body: [], cookie });
        expect(list.json().error.message).toBe('Send the request body as a JSON object.');
      });

      it('refuses allow_client_deletes that is not true or false, saying so, and keeps the setting', async () => {
        const { cookie } = await signedInDeveloper(t);
        const id = (await createGame(cookie, 'Strict')).json().game_id;
        const res = await call(t.app, 'PATCH', `/api/games/${id}`, { body: { allow_client_deletes: 'yes' }, cookie });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toEqual({
          code: 'InvalidParameter',
          message: 'allow_client_deletes must be true or false.',
          field: 'allow_client_deletes',
        });
        expect((await call(t.app, 'GET', `/api/games/${id}`, { cookie })).json().allow_client_deletes).toBe(false);
      });
    });

    describe('client deletes (issue 14)', () => {
      it('the migration keeps the setting of existing games; new games start with client deletes off', async () => {
        const migrator = new Migrator({
          db: t.database.db,
          provider: { getMigrations: async () => migrations },
          ...(t.database.schema ? { migrationTableSchema: t.database.schema } : {}),
        });
        // On PostgreSQL the schema lives in the test database that other test files share.
        const migrating = <T>(run: () => Promise<T>) =>
          dialect === 'postgres' ? migratingBesideOthers(services.postgresUrl!, run) : run();
        expect((await migrating(() => migrator.migrateTo('2026_11_23_0008_session_versions'))).error).toBeUndefined();
        const developer = await developerWithGames(2);
        const owner = await t.database.db
          .selectFrom('identity_users')
          .select('id')
          .where('username', '=', developer.email)
          .executeTakeFirstOrThrow();
        await t.database.db
          .updateTable('games')
          .set({ allow_client_deletes: 0 })
          .where('id', '=', `${owner.id}-1`)
          .execute();
        expect((await migrating(() => migrator.migrateToLatest())).error).toBeUndefined();
        const settings = await t.database.db
          .selectFrom('games')
          .select(['id', 'allow_client_deletes'])
          .where('owner_id', '=', owner.id)
          .orderBy('id')
          .execute();
        expect(settings.map((g) => g.allow_client_deletes)).toEqual([1, 0]);
        const created = (await createGame(developer.cookie, 'New')).json().game_id;
        expect((await call(t.app, 'GET', `/api/games/${created}`, { cookie: developer.cookie })).json()).toMatchObject({
          allow_client_deletes: false,
        });
      });
    });

    describe('API keys', () => {
      it('shows the key, and a rotated key replaces the old one at once on /v1/ping', async () => {
        const { cookie } = await signedInDeveloper(t);
        const { game_id, api_key } = (await createGame(cookie, 'Keys')).json();
        const shown = await call(t.app, 'GET', `/api/games/${game_id}/api-key`, { cookie });
        expect(shown.json()).toEqual({ api_key });
        expect(shown.headers['cache-control']).toBe('no-store');
        expect((await gameCall(t.app, 'GET', '/v1/ping', { apiKey: api_key, gameId: game_id })).json()).toEqual({
          game_id,
          name: 'Keys',
        });

        const rotation = await call(t.app, 'POST', `/api/games/${game_id}/api-key/rotate`, { body: {}, cookie });
        expect(rotation.headers['cache-control']).toBe('no-store');
        const rotated = rotation.json().api_key;
        expect(rotated).not.toBe(api_key);
        const old = await gameCall(t.app, 'GET', '/v1/ping', { apiKey: api_key, gameId: game_id });
        expect([old.statusCode, old.json().error.code]).toEqual([403, 'InvalidApiKey']);
        expect((await gameCall(t.app, 'GET', '/v1/ping', { apiKey: rotated, gameId: game_id })).statusCode).toBe(200);
        expect((await call(t.app, 'GET', `/api/games/${game_id}/api-key`, { cookie })).json()).toEqual({
          api_key: rotated,
        });
      });
    });

    describe('DELETE /api/games/:gameId', () => {
      it('deletes the game with its players and their sessions in one go, and picks another current game', async () => {
        const { email, cookie } = await signedInDeveloper(t);
        const keep = (await createGame(cookie, 'Keep')).json().game_id;
        t.clock.advance(1);
        const doomed = (await createGame(cookie, 'Doomed')).json();
        // A player with a session under the doomed game, through the identity module the player API will use.
        const identity = createIdentity({
          db: t.database.db,
          clock: t.clock,
          hasher: createPasswordHasher(),
          limiters: memoryLimiters(),
          limits: t.config.limits,
        });
        const players = identity.pool({
          poolId: playerPoolId(doomed.game_id),
          sendCode: async () => {},
          sessionTtlMs: () => null,
        });
        await players.createConfirmed({ username: 'a-player', email: null, password: STRONG_PASSWORD });
        await players.signIn('a-player', STRONG_PASSWORD);
        await players.requestReset('a-player');
        const player = await t.database.db
          .selectFrom('identity_users')
          .select('id')
          .where('pool_id', '=', playerPoolId(doomed.game_id))
          .executeTakeFirstOrThrow();

        await gameCall(t.app, 'POST', '/v1/leaderboards/main/scores', {
          apiKey: doomed.api_key,
          gameId: doomed.game_id,
          body: { player_name: 'a-player', score: 1 },
        });
        /** How many rows of a table name the doomed game, or its player. */
        const rows = async (table: keyof DB, column: string, value: string) =>
          (
            await sql<{
              n: number | string;
            }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(column)} = ${value}`.execute(t.database.db)
          ).rows.map((r) => Number(r.n))[0]!;
        const boards = (
          await t.database.db.selectFrom('leaderboards').select('id').where('game_id', '=', doomed.game_id).execute()
        ).map((b) => b.id);
        const count = async () => ({
          games: await rows('games', 'id', doomed.game_id),
          leaderboards: await rows('leaderboards', 'game_id', doomed.game_id),
          scores: await rows('scores', 'leaderboard_id', boards[0]!),
          players: await rows('identity_users', 'pool_id', playerPoolId(doomed.game_id)),
          sessions: await rows('identity_sessions', 'user_id', player.id),
          codes: await rows('identity_codes', 'user_id', player.id),
        });
        expect(await count()).toEqual({ games: 1, leaderboards: 1, scores: 1, players: 1, sessions: 1, codes: 1 });

        const res = await call(t.app, 'DELETE', `/api/games/${doomed.game_id}`, { cookie });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ games: [expect.objectContaining({ game_id: keep })], current_game_id: keep });
        expect(await count()).toEqual({ games: 0, leaderboards: 0, scores: 0, players: 0, sessions: 0, codes: 0 });
        expect(
          (await gameCall(t.app, 'GET', '/v1/ping', { apiKey: doomed.api_key, gameId: doomed.game_id })).statusCode,
        ).toBe(403);
        // The developer's own account is untouched.
        expect(
          (await call(t.app, 'POST', '/api/auth/sign-in', { body: { email, password: STRONG_PASSWORD } })).statusCode,
        ).toBe(200);

        const last = await call(t.app, 'DELETE', `/api/games/${keep}`, { cookie });
        expect(last.json()).toEqual({ games: [], current_game_id: null });
      });

      it('keeps the current game when another one is deleted', async () => {
        const { cookie } = await signedInDeveloper(t);
        const other = (await createGame(cookie, 'Other')).json().game_id;
        t.clock.advance(1);
        const current = (await createGame(cookie, 'Current')).json().game_id;
        const res = await call(t.app, 'DELETE', `/api/games/${other}`, { cookie });
        expect(res.json().current_game_id).toBe(current);
      });
    });

    describe('parallel calls', () => {
      it('never lets parallel creates pass the game limit', async () => {
        const { cookie } = await developerWithGames(95);
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => createGame(cookie, `Race ${i}`)));
        expect(results.filter((r) => r.statusCode === 201)).toHaveLength(5);
        expect(results.filter((r) => r.statusCode === 409)).toHaveLength(15);
        expect((await call(t.app, 'GET', '/api/games', { cookie })).json().games).toHaveLength(100);
      });

      it('never leaves the current game pointing at a deleted game', async () => {
        for (let round = 0; round < 5; round++) {
          const { cookie } = await signedInDeveloper(t);
          const a = (await createGame(cookie, 'A')).json().game_id;
          const b = (await createGame(cookie, 'B')).json().game_id;
          await Promise.all([
            call(t.app, 'DELETE', `/api/games/${a}`, { cookie }),
            call(t.app, 'DELETE', `/api/games/${b}`, { cookie }),
            call(t.app, 'PUT', '/api/games/current', { body: { game_id: a }, cookie }),
          ]);
          expect((await call(t.app, 'GET', '/api/games', { cookie })).json()).toEqual({
            games: [],
            current_game_id: null,
          });
        }
      });
    });

    describe('ownership', () => {
      let gameId: string;
      let apiKey: string;
      let owner: string;
      let intruder: string;
      beforeAll(async () => {
        owner = (await signedInDeveloper(t)).cookie;
        ({ game_id: gameId, api_key: apiKey } = (await createGame(owner, 'Mine')).json());
        intruder = (await signedInDeveloper(t)).cookie;
        await createGame(intruder, 'Theirs');
      });

      /** Everything an intruder's call could have changed. */
      const snapshot = async () => ({
        game: await t.database.db
          .selectFrom('games')
          .select(['name', 'api_key', 'allow_client_deletes'])
          .where('id', '=', gameId)
          .executeTakeFirst(),
        owner: (await call(t.app, 'GET', '/api/games', { cookie: owner })).json(),
        intruder: (await call(t.app, 'GET', '/api/games', { cookie: intruder })).json().current_game_id,
      });

      const routes: Array<
        [
          string,
          'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
          (id: string) => string,
          ((id: string) => unknown) | undefined,
        ]
      > = [
        ['read', 'GET', (id) => `/api/games/${id}`, undefined],
        ['rename', 'PATCH', (id) => `/api/games/${id}`, () => ({ name: 'Stolen', allow_client_deletes: true })],
        ['delete', 'DELETE', (id) => `/api/games/${id}`, undefined],
        ['read the key', 'GET', (id) => `/api/games/${id}/api-key`, undefined],
        ['rotate the key', 'POST', (id) => `/api/games/${id}/api-key/rotate`, () => ({})],
        ['make it current', 'PUT', () => '/api/games/current', (id) => ({ game_id: id })],
      ];

      it.each(routes)(
        'answers 404 NotFound when another developer tries to %s, and changes nothing',
        async (_what, method, path, body) => {
          const before = await snapshot();
          const res = await call(t.app, method, path(gameId), {
            cookie: intruder,
            ...(body ? { body: body(gameId) } : {}),
          });
          expect(res.statusCode).toBe(404);
          expect(res.json().error).toEqual({ code: 'NotFound', message: 'Game not found.' });
          expect(res.body).not.toContain(apiKey);
          expect(await snapshot()).toEqual(before);
          expect(before.game).toMatchObject({ name: 'Mine', api_key: apiKey, allow_client_deletes: 0 });
        },
      );

      it.each(routes)(
        'answers 401 NotAuthorized when signed out and trying to %s',
        async (_what, method, path, body) => {
          const res = await call(t.app, method, path(gameId), body ? { body: body(gameId) } : {});
          expect([res.statusCode, res.json().error.code]).toEqual([401, 'NotAuthorized']);
        },
      );

      it.each([
        ['POST', '/api/games', {}],
        ['PUT', '/api/games/current', { game_id: 42 }],
        ['PATCH', '/api/games/x', { name: '' }],
      ] as const)('answers 401 (not 400) to a signed-out %s %s with an invalid body', async (method, path, body) => {
        const res = await call(t.app, method, path, { body });
        expect([res.statusCode, res.json().error.code]).toEqual([401, 'NotAuthorized']);
      });

      it("never lists another developer's games", async () => {
        const theirs = (await call(t.app, 'GET', '/api/games', { cookie: intruder })).json();
        expect(theirs.games.map((g: { name: string }) => g.name)).toEqual(['Theirs']);
        expect(theirs.games.map((g: { game_id: string }) => g.game_id)).not.toContain(gameId);
      });
    });
  });
}
