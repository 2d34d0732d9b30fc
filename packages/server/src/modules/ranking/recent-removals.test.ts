import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import { insertBoardRows } from '../../../test/support/rank-indexes.js';
import { DIALECTS } from '../../../test/support/services.js';
import { RecentRemovals } from './recent-removals.js';

const board = { boardId: 'board', periodStart: 0, sort: 'desc' as const, generation: 0 };
const ID = '00000000-0000-4000-8000-00000000000a';

// Two notices' reads overlap only on a database with several connections: SQLite's one connection
// holds every other statement behind a read that waits.
for (const { dialect, skip } of DIALECTS.filter((d) => d.dialect === 'postgres')) {
  describe.skipIf(skip)(`${dialect}: a notice of a removed id`, () => {
    let database: Awaited<ReturnType<typeof openTestDatabase>>;
    /** While set, a read's answer waits for it: a read that takes its time, as under load. */
    let gate: Promise<void> | undefined;
    /** Resolves once a read has run and its answer waits at the gate. */
    let reached: () => void = () => {};
    const slowReads: KyselyPlugin = {
      transformQuery: ({ node }) => node,
      async transformResult({ result }) {
        if (gate) {
          reached();
          await gate;
        }
        return result;
      },
    };
    const atGate = () => new Promise<void>((resolve) => (reached = resolve));
    beforeAll(async () => {
      database = await openTestDatabase(dialect);
      await insertBoardRows(database.db, 'board');
    });
    afterAll(() => database?.close());

    /** The entry X as the database holds it, in its incarnation `player` at `revision`. */
    const store = async (player: string, score: number, revision: number) => {
      await database.db.deleteFrom('scores').where('id', '=', ID).execute();
      await database.db
        .insertInto('scores')
        .values({
          id: ID,
          leaderboard_id: 'board',
          period_start: 0,
          player_name: player,
          player_key: ID,
          score,
          timestamp: 1,
          metadata: null,
          engine: null,
          revision,
        })
        .execute();
    };

    /** A notice of the id whose read has run and whose answer waits until `open` is called. */
    const heldBack = async (removals: RecentRemovals) => {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      const waiting = atGate();
      const slow = removals.savedAgain(database.db.withPlugin(slowReads), board, ID);
      await waiting;
      gate = undefined;
      return { slow, open };
    };

    it("answers the database's latest state when another notice of the id saved again got there first", async () => {
      const removals = new RecentRemovals();
      // The id came back as A, updated to revision 3; its notice reads the row slowly.
      await store('A', 30, 3);
      removals.add(ID, 1);
      const { slow, open } = await heldBack(removals); // A's row is read; its answer waits
      // Meanwhile the id goes again and comes back as B, at revision 0, whose notice is quick.
      await store('B', 10, 0);
      removals.add(ID, 2);
      expect(await removals.savedAgain(database.db, board, ID)).toMatchObject({ player_name: 'B', revision: 0 });
      open();
      // A's older read would put A back over B (3 > 0); the database's latest state is B's.
      expect(await slow).toMatchObject({ player_name: 'B', score: 10, revision: 0 });
      expect(removals.has(ID)).toBe(false);
    });

    it('answers nothing when the id was removed again while it was read, nor for an id the database lacks', async () => {
      const removals = new RecentRemovals();
      await store('C', 5, 0);
      removals.add(ID, 1);
      const { slow, open } = await heldBack(removals);
      removals.add(ID, 2);
      open();
      expect(await slow).toBeUndefined();
      expect(removals.has(ID)).toBe(true);

      await database.db.deleteFrom('scores').where('id', '=', ID).execute();
      expect(await removals.savedAgain(database.db, board, ID)).toBeUndefined();
    });
  });
}
