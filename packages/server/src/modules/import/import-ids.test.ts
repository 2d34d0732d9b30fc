import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IMPORT_SETUPS, importGames } from '../../../test/support/imports.js';

const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);

// "Running the same file twice adds nothing" (docs/silentwolf.md), whatever ids the file's scores carry.
for (const { dialect, skip, index, redis } of IMPORT_SETUPS) {
  describe.skipIf(skip)(`${dialect}, ${index} index: the ids an import gives`, () => {
    const { ctx, game } = importGames(dialect, redis);
    const scoresOf = async (res: Awaited<ReturnType<Awaited<ReturnType<typeof game>>['read']>>) =>
      (res.json().scores as Array<{ score_id: string; player_name: string; score: number }>).map(
        ({ score_id, player_name, score }) => ({ score_id, player_name, score }),
      );

    it('adds nothing on a second run of a file whose scores have no id, a repeated id, or one used elsewhere', async () => {
      const g = await game();
      const other = await game();
      const [used, twice] = [randomUUID(), randomUUID()];
      await other.importing({ leaderboards: [{ name: 'main', scores: [{ sid: used, pn: 'Zed', s: 1 }] }] });
      const body = {
        leaderboards: [
          {
            name: 'main',
            scores: [
              // Two identical rows without an id or a time are two scores, both times.
              { pn: 'Ana', s: 5 },
              { pn: 'Ana', s: 5 },
              { player_name: 'Bo', score: 6, timestamp: T0 },
              { sid: 'not-a-uuid', pn: 'Cy', s: 7, t: T0 },
              { sid: twice, pn: 'Di', s: 8, t: T0 },
              { sid: twice, pn: 'Di', s: 9, t: T0 + 1 },
              { sid: used, pn: 'Ed', s: 10, t: T0 },
            ],
          },
        ],
      };
      const first = await g.importing(body);
      expect(first.json().scores).toEqual({ imported: 7, skipped: 0 });
      const again = await g.importing(body);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().scores).toEqual({ imported: 0, skipped: 7 });
      const main = await scoresOf(await g.read('main'));
      expect(main.map((s) => [s.player_name, s.score])).toEqual([
        ['Ed', 10],
        ['Di', 9],
        ['Di', 8],
        ['Cy', 7],
        ['Bo', 6],
        ['Ana', 5],
        ['Ana', 5],
      ]);
      expect(new Set(main.map((s) => s.score_id)).size).toBe(7);
      expect(main.find((s) => s.score === 8)!.score_id).toBe(twice);
      expect(main.find((s) => s.score === 10)!.score_id).not.toBe(used);

      // The other game's score goes: the id is free now, but this board has the score under the id made for it.
      await ctx.t.database.db.deleteFrom('scores').where('id', '=', used).execute();
      const third = await g.importing(body);
      expect(third.json().scores).toEqual({ imported: 0, skipped: 7 });
      expect(await scoresOf(await g.read('main'))).toHaveLength(7);
    });
  });
}
