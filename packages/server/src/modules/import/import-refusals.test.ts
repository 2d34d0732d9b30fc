import { describe, expect, it } from 'vitest';
import { IMPORT_SETUPS, importGames } from '../../../test/support/imports.js';

const END_OF_9999 = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

for (const { dialect, skip, index, redis } of IMPORT_SETUPS) {
  describe.skipIf(skip)(`${dialect}, ${index} index: what an import refuses`, () => {
    const { console: consoleCall, game, v1Of } = importGames(dialect, redis);

    it('places a score of the last moment of 9999 on a board resetting in a zone ahead of UTC, and refuses a later one by its row', async () => {
      const g = await game();
      for (const time_based of ['daily', 'yearly']) {
        const made = await consoleCall(
          'POST',
          '/leaderboards',
          { name: time_based, time_based, timezone: 'Pacific/Kiritimati', max_entries: null },
          g.game_id,
        );
        expect(made.statusCode, made.body).toBe(201);
        const late = await g.importing({
          leaderboards: [
            {
              name: time_based,
              scores: [
                { pn: 'Ok', s: 1, t: END_OF_9999 },
                { pn: 'Far', s: 2, t: 8.64e15 },
              ],
            },
          ],
        });
        expect([late.statusCode, late.json().error]).toEqual([
          400,
          {
            code: 'InvalidParameter',
            message: 'The timestamp must be epoch milliseconds, at most the end of the year 9999.',
            field: 'leaderboards.0.scores.1.t',
          },
        ]);
        const last = await g.importing({
          leaderboards: [{ name: time_based, scores: [{ pn: 'Ok', s: 1, t: END_OF_9999 }] }],
        });
        expect(last.statusCode, last.body).toBe(200);
        expect(last.json().scores).toEqual({ imported: 1, skipped: 0 });
      }
    });

    it("refuses Howl's own player data export whole, naming what it would lose, and writes nothing", async () => {
      const from = await game();
      const play = v1Of(from);
      for (const [path, player_data] of [
        ['amy/characters/Mage', { hp: 5 }],
        ['__game__', { season: 2 }],
      ] as const) {
        expect((await play('PUT', `/v1/player-data/${path}`, { body: { player_data } })).statusCode).toBe(200);
      }
      const exported = (await consoleCall('GET', '/player-data/export', undefined, from.game_id)).json();
      const into = await game();
      const res = await into.importing(exported);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'InvalidParameter', field: 'players.0.characters' });
      expect(res.json().error.message).toMatch(/^This is a Howl player data export/);
      const withoutState = { ...exported, game_state: undefined };
      expect((await into.importing({ ...withoutState, players: [] })).json().error.field).toBe('exported_at');
      expect((await consoleCall('GET', '/players', undefined, into.game_id)).json().players).toEqual([]);
    });

    it('makes no account named "." or "..", which the dashboard could not manage, and writes nothing', async () => {
      const g = await game();
      const res = await g.importing({ players: [{ pn: 'fine', em: 'f@example.com' }, { pn: '..' }] });
      expect([res.statusCode, res.json().error]).toEqual([
        400,
        { code: 'InvalidParameter', message: 'player_name cannot be "." or "..".', field: 'players.1.pn' },
      ]);
      expect((await consoleCall('GET', '/players', undefined, g.game_id)).json().players).toEqual([]);
    });
  });
}
