import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, gameCall, signedInDeveloper, startTestApp, type TestApp } from '../../../test/support/app.js';
import { openTestDatabase } from '../../../test/support/database.js';
import { insertDeveloperRow } from '../../../test/support/rank-indexes.js';
import { sharedRedis } from '../../../test/support/redis-cluster.js';
import { DIALECTS, REDIS_SKIP, services } from '../../../test/support/services.js';
import { createCaches } from '../../lib/cache.js';
import type { GameRow } from './games.table.js';
import { createGames } from './service.js';
import * as store from './store.js';

interface Game {
  game_id: string;
  api_key: string;
}

const ping = (t: TestApp, game: Game, apiKey = game.api_key) =>
  gameCall(t.app, 'GET', '/v1/ping', { apiKey, gameId: game.game_id });
const v1 = (t: TestApp, game: Game, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
  gameCall(t.app, method, url, { apiKey: game.api_key, gameId: game.game_id, ...(body === undefined ? {} : { body }) });
const statusAndCode = (res: { statusCode: number; json(): { error?: { code: string } } }) => [
  res.statusCode,
  res.json().error?.code,
];

// With TEST_REDIS_URL, each case runs again with invalidations going through Redis too.
const VARIANTS = [
  { redis: false, skip: false as string | false },
  { redis: true, skip: REDIS_SKIP },
];

for (const { dialect, skip } of DIALECTS) {
  for (const variant of VARIANTS) {
    const label = `${dialect}${variant.redis ? ' + redis' : ''}`;
    describe.skipIf(skip || variant.skip)(`${label}: games and boards kept in memory follow every change`, () => {
      let t: TestApp;
      let cookie: string;
      let game: Game;
      // Every console change here must succeed, or a test would pass on a change that never happened.
      const consoleCall = async (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
        const res = await call(t.app, method, url, { cookie, ...(body === undefined ? {} : { body }) });
        expect(res.statusCode, res.body).toBeLessThan(300);
        return res;
      };
      beforeAll(async () => {
        t = await startTestApp({
          dialect,
          redis: variant.redis,
          ...(variant.redis ? { env: { REDIS_URL: services.redisUrl! } } : {}),
        });
        cookie = (await signedInDeveloper(t)).cookie;
        game = (await consoleCall('POST', '/api/games', { name: 'Kept' })).json();
      });
      afterAll(() => t?.close());

      it('refuses a rotated key on the very next call', async () => {
        expect((await ping(t, game)).statusCode).toBe(200);
        const rotated = (await consoleCall('POST', `/api/games/${game.game_id}/api-key/rotate`, {})).json().api_key;
        expect(statusAndCode(await ping(t, game))).toEqual([403, 'InvalidApiKey']);
        expect((await ping(t, game, rotated)).statusCode).toBe(200);
        game = { ...game, api_key: rotated };
      });

      it('applies client deletes and player authentication on the very next call', async () => {
        expect(statusAndCode(await v1(t, game, 'DELETE', `/v1/scores/${randomUUID()}`))).toEqual([
          403,
          'ClientWritesDisabled',
        ]);
        await consoleCall('PATCH', `/api/games/${game.game_id}`, { allow_client_deletes: true });
        expect(statusAndCode(await v1(t, game, 'DELETE', `/v1/scores/${randomUUID()}`))).toEqual([
          404,
          'ScoreNotFound',
        ]);

        const player = { player_name: 'kept', password: 'Secret-123', confirm_password: 'Secret-123' };
        expect(statusAndCode(await v1(t, game, 'POST', '/v1/players', player))).toEqual([403, 'PlayerAuthDisabled']);
        await consoleCall('PUT', `/api/games/${game.game_id}/player-auth`, { enabled: true, reg_type: 'un_pwd' });
        expect((await v1(t, game, 'POST', '/v1/players', player)).statusCode).toBe(200);
      });

      it("applies a board's creation, new settings, wipe and delete on the very next call", async () => {
        const scores = async () =>
          (await v1(t, game, 'GET', '/v1/leaderboards/kept/scores?max=0'))
            .json()
            .scores.map((s: { score: number }) => s.score);
        expect(statusAndCode(await v1(t, game, 'GET', '/v1/leaderboards/kept/scores'))).toEqual([
          404,
          'LeaderboardNotFound',
        ]);
        await consoleCall('POST', `/api/games/${game.game_id}/leaderboards`, { name: 'kept', max_entries: null });
        for (const score of [1, 3, 2])
          await v1(t, game, 'POST', '/v1/leaderboards/kept/scores', { player_name: 'p', score });
        expect(await scores()).toEqual([3, 2, 1]);

        await consoleCall('PUT', `/api/games/${game.game_id}/leaderboards/kept`, { sort: 'asc' });
        expect(await scores()).toEqual([1, 2, 3]);
        // A save mode that keeps one entry per player: the next submit replaces, not adds.
        await consoleCall('PUT', `/api/games/${game.game_id}/leaderboards/kept`, { insert_option: 'latest' });
        await v1(t, game, 'POST', '/v1/leaderboards/kept/scores', { player_name: 'p', score: 9 });
        expect(await scores()).toEqual([9]);

        await v1(t, game, 'DELETE', '/v1/leaderboards/kept/scores');
        expect(await scores()).toEqual([]);
        await v1(t, game, 'POST', '/v1/leaderboards/kept/scores', { player_name: 'p', score: 4 });
        expect(await scores()).toEqual([4]);

        await consoleCall('DELETE', `/api/games/${game.game_id}/leaderboards/kept`);
        expect(statusAndCode(await v1(t, game, 'GET', '/v1/leaderboards/kept/scores'))).toEqual([
          404,
          'LeaderboardNotFound',
        ]);
        // Made again under the same name: a new board, empty, the one saves go to.
        await consoleCall('POST', `/api/games/${game.game_id}/leaderboards`, { name: 'kept', max_entries: null });
        await v1(t, game, 'POST', '/v1/leaderboards/kept/scores', { player_name: 'p', score: 5 });
        expect(await scores()).toEqual([5]);
      });

      it('refuses the key of a deleted game on the very next call', async () => {
        const doomed: Game = (await consoleCall('POST', '/api/games', { name: 'Doomed' })).json();
        expect((await ping(t, doomed)).statusCode).toBe(200);
        expect((await v1(t, doomed, 'GET', '/v1/leaderboards/main/scores')).statusCode).toBe(200);
        await consoleCall('DELETE', `/api/games/${doomed.game_id}`);
        expect(statusAndCode(await ping(t, doomed))).toEqual([403, 'InvalidApiKey']);
      });
    });

    describe.skipIf(skip || variant.skip)(`${label}: a read racing a key rotation`, () => {
      it('answers the old key to the read that began first, then never again', async () => {
        const database = await openTestDatabase(dialect);
        const redis = variant.redis ? new Redis(services.redisUrl!) : undefined;
        const caches = await createCaches({ ...(redis ? { redis, channel: `howl-test:${randomUUID()}` } : {}) });
        try {
          const games = createGames({
            db: database.db,
            clock: { now: () => 0 },
            setUpGame: async () => {},
            underGame: [],
            caches,
          });
          const id = `race-${randomUUID()}`;
          await insertDeveloperRow(database.db, 'race-owner');
          await database.db
            .insertInto('games')
            .values({ id, owner_id: 'race-owner', name: 'Race', api_key: 'howl_old', created_at: 0 })
            .execute();

          // A slow read of the game (the same cache games.find uses): it has read the old row and not answered yet.
          let reached!: () => void;
          let release!: () => void;
          const readDone = new Promise<void>((resolve) => (reached = resolve));
          const gate = new Promise<void>((resolve) => (release = resolve));
          const slow = caches.cache<GameRow>('games').get(id, async () => {
            const row = await store.findGame(database.db, id);
            reached();
            await gate;
            return row;
          });
          await readDone;
          // (The row from the database: games.find would wait for the slow read, which it joins.)
          const rotated = await games.rotateApiKey((await store.findGame(database.db, id))!);
          release();
          expect((await slow)?.api_key).toBe('howl_old');
          expect((await games.find(id))?.api_key).toBe(rotated);
          expect((await games.find(id))?.api_key).toBe(rotated);
        } finally {
          await caches.close();
          await redis?.quit();
          await database.close();
        }
      });
    });
  }
}

// Invalidations cross from one process to the other through one Redis, and through a cluster's nodes.
for (const shared of sharedRedis()) {
  describe.skipIf(DIALECTS[1]!.skip || shared.skip)(
    `postgres + ${shared.label}: two server processes on one database`,
    () => {
      let a: TestApp;
      let b: TestApp;
      let cookie: string;
      let game: Game;
      beforeAll(async () => {
        a = await startTestApp({ dialect: 'postgres', ...shared.appOptions() });
        b = await startTestApp({ dialect: 'postgres', ...shared.appOptions(), database: a.database });
        cookie = (await signedInDeveloper(a)).cookie;
        game = (await call(a.app, 'POST', '/api/games', { body: { name: 'Two processes' }, cookie })).json();
      });
      afterAll(async () => {
        await b?.close();
        await a?.close();
      });
      // Redis has queued the notice to b before answering a's PUBLISH, but b reads it on its own socket: the
      // next call waits until b has applied what was queued (the delay a real deployment sees is that read;
      // on a cluster the notice also crosses between nodes, and b waits for a marker sent after it).
      const heardByB = () => b.app.invalidationsHeard();

      it('says on /healthz of both processes that the database and Redis answer', async () => {
        for (const t of [a, b]) {
          const res = await call(t.app, 'GET', '/healthz');
          expect([res.statusCode, res.json()]).toEqual([200, { status: 'ok', database: 'postgres', redis: 'up' }]);
        }
      });

      it('refuses a key rotated through one process on the next call to the other', async () => {
        expect((await ping(b, game)).statusCode).toBe(200);
        const rotated = (
          await call(a.app, 'POST', `/api/games/${game.game_id}/api-key/rotate`, { body: {}, cookie })
        ).json().api_key;
        await heardByB();
        expect(statusAndCode(await ping(b, game))).toEqual([403, 'InvalidApiKey']);
        expect((await ping(b, game, rotated)).statusCode).toBe(200);
        game = { ...game, api_key: rotated };
      });

      it("applies a board's delete through one process on the next call to the other", async () => {
        expect((await v1(b, game, 'GET', '/v1/leaderboards/main/scores')).statusCode).toBe(200);
        await call(a.app, 'DELETE', `/api/games/${game.game_id}/leaderboards/main`, { cookie });
        await heardByB();
        expect(statusAndCode(await v1(b, game, 'GET', '/v1/leaderboards/main/scores'))).toEqual([
          404,
          'LeaderboardNotFound',
        ]);
      });
    },
  );
}
