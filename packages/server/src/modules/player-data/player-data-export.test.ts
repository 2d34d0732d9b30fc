import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { call, signedInDeveloper } from '../../../test/support/app.js';
import { seedPlayerDocs } from '../../../test/support/player-docs.js';
import { playerGame } from '../../../test/support/players.js';
import { DIALECTS } from '../../../test/support/services.js';

const PLAYERS = 20_000;
const DOC_BYTES = 5_000;
const MARKER = '"player_name":';
const count = (text: string) => text.split(MARKER).length - 1;

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: exporting a game's player data`, () => {
    const { ctx, newGame, v1 } = playerGame(dialect);
    const exportOf = (gameId: string, cookie = ctx.cookie) =>
      call(ctx.t.app, 'GET', `/api/games/${gameId}/player-data/export`, { cookie });

    it("exports every player's and character's data and the game state as playerdata.json", async () => {
      const game = await newGame('Export');
      const opts = { apiKey: game.api_key, gameId: game.game_id };
      const put = (path: string, player_data: Record<string, unknown>) =>
        v1('PUT', `/v1/player-data/${path}`, { ...opts, body: { player_data } });
      await put('amy', { lvl: 1 });
      await put('amy/characters/Mage', { hp: 5 });
      await put('amy/characters/Archer', { hp: 7 });
      await put('bob/characters/Solo', { only: 'character' });
      await put('__game__', { season: 2 });
      await put('zed', { text: 'naïve "quotes"' });

      const res = await exportOf(game.game_id);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="playerdata.json"');
      expect(res.json()).toEqual({
        game_id: game.game_id,
        exported_at: new Date(ctx.t.clock.now()).toISOString(),
        players: [
          { player_name: 'amy', player_data: { lvl: 1 }, characters: { Archer: { hp: 7 }, Mage: { hp: 5 } } },
          { player_name: 'bob', player_data: null, characters: { Solo: { only: 'character' } } },
          { player_name: 'zed', player_data: { text: 'naïve "quotes"' }, characters: {} },
        ],
        game_state: { season: 2 },
      });
      const empty = await newGame('Empty export');
      expect((await exportOf(empty.game_id)).json()).toMatchObject({ players: [], game_state: null });
    });

    it('answers 401 signed out and 404 for another developer', async () => {
      expect((await call(ctx.t.app, 'GET', `/api/games/${ctx.game.game_id}/player-data/export`)).statusCode).toBe(401);
      const stranger = (await signedInDeveloper(ctx.t)).cookie;
      const res = await exportOf(ctx.game.game_id, stranger);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NotFound');
    });

    it(
      `streams ${PLAYERS.toLocaleString('en')} players with flat memory (what stays held after GC)`,
      { timeout: 120_000 },
      async () => {
        const game = await newGame('Crowded export');
        await seedPlayerDocs(ctx.t.database.db, game.game_id, PLAYERS, DOC_BYTES);
        const address = await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
        const { port } = ctx.t.app.server.address() as AddressInfo;
        expect(address).toContain(String(port));

        // What the process holds after a full collection: garbage from the stream does not count.
        const gc = (globalThis as { gc?: () => void }).gc;
        if (!gc) throw new Error('run the tests with --expose-gc (vitest.config.ts sets it)');
        const held = () => {
          gc();
          const m = process.memoryUsage();
          return m.heapUsed + m.external + m.arrayBuffers;
        };
        const before = held();
        let peak = before;
        // Each sample is a full collection on the serving thread: every 100 ms keeps the test's own cost
        // small (every 25 ms made the SQLite export take 90 s), and still sees an export held whole grow.
        const sampler = setInterval(() => (peak = Math.max(peak, held())), 100);
        // Counts the bytes and the players as they arrive, keeping nothing.
        const { bytes, players } = await new Promise<{ bytes: number; players: number }>((resolve, reject) => {
          get(
            {
              host: '127.0.0.1',
              port,
              path: `/api/games/${game.game_id}/player-data/export`,
              headers: { cookie: `howl_session=${ctx.cookie}` },
            },
            (res) => {
              let bytes = 0;
              let players = 0;
              let tail = '';
              res.on('data', (chunk: Buffer) => {
                bytes += chunk.length;
                // A marker may straddle two chunks: count it in the previous chunk's tail plus this one.
                const text = tail + chunk.toString('latin1');
                players += count(text) - count(tail);
                tail = text.slice(-MARKER.length);
              });
              res.on('end', () => resolve({ bytes, players }));
              res.on('error', reject);
            },
          ).on('error', reject);
        });
        clearInterval(sampler);
        const growth = peak - before;
        expect(players).toBe(PLAYERS);
        expect(bytes).toBeGreaterThan(PLAYERS * DOC_BYTES);
        // Holding the export would hold all of it (about 100 MB); streaming holds a page or two. Measured
        // here: about 7 MB on PostgreSQL and 15 to 25 MB on SQLite alone, 34 MB beside other test files.
        expect(
          growth,
          `memory held grew ${(growth / 2 ** 20).toFixed(1)} MB for a ${(bytes / 2 ** 20).toFixed(1)} MB export`,
        ).toBeLessThan(bytes / 2);
      },
    );
  });
}
