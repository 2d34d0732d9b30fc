import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { describe, expect, it } from 'vitest';
import { boardGame } from '../../../test/support/boards.js';
import { openTestDatabase } from '../../../test/support/database.js';
import { services } from '../../../test/support/services.js';

// On PostgreSQL a group of submits to an unlimited board commits in one statement, and only then
// reads the standing entries of the saves that did not beat them (writes.ts saveHeld). That read
// can fail (a dropped connection) after the group has committed: nothing may then run again, and
// the rank index must still hear of every score the statement saved.
describe.skipIf(!services.postgresUrl && 'TEST_DATABASE_URL is not set')(
  'postgres: a read failing after a save',
  () => {
    /** While set, every read of players' standing entries fails once it has run, as a lost connection would. */
    let failing = false;
    const doomed = new WeakSet<object>();
    const standingRead = (node: RootOperationNode) =>
      node.kind === 'SelectQueryNode' && JSON.stringify(node).includes('"player_key"');
    // Outside our control in production (the network, the database going away), so stood in for here.
    const lostConnection: KyselyPlugin = {
      transformQuery({ node, queryId }) {
        if (failing && standingRead(node)) doomed.add(queryId);
        return node;
      },
      async transformResult({ result, queryId }) {
        if (doomed.has(queryId)) throw new Error('Connection terminated unexpectedly');
        return result;
      },
    };
    const { ctx, submit, createBoard, v1 } = boardGame('postgres', async () => {
      const database = await openTestDatabase('postgres');
      return { database: { ...database, db: database.db.withPlugin(lostConnection) } };
    });

    it('answers the saves that beat the standing entry, fails only the others, and the board shows every saved score', async () => {
      expect((await createBoard({ name: 'best', max_entries: null, insert_option: 'highest' })).statusCode).toBe(201);
      const players = ['a', 'b', 'c', 'd', 'e', 'f'];
      for (const p of players) expect((await submit('best', p, 50)).statusCode).toBe(200);

      failing = true;
      // Three beat their entries (60+), three do not (40-): sent at once, they commit in groups.
      const answers = await Promise.all(players.map((p, i) => submit('best', p, i % 2 ? 40 - i : 60 + i)));
      failing = false;

      players.forEach((p, i) => {
        const answer = answers[i]!;
        if (i % 2) {
          expect([p, answer.statusCode, answer.json().error.code]).toEqual([p, 503, 'ServiceUnavailable']);
        } else {
          expect([p, answer.statusCode, answer.json().kept]).toEqual([p, 200, true]);
        }
      });
      const stored = await ctx.t.database.db
        .selectFrom('scores')
        .select(['player_name', 'score'])
        .where('player_name', 'in', players)
        .orderBy('score', 'desc')
        .orderBy('player_name')
        .execute();
      const expected = [
        ['e', 64],
        ['c', 62],
        ['a', 60],
        ['b', 50],
        ['d', 50],
        ['f', 50],
      ];
      // Each save committed once: nothing ran again.
      expect(stored.map((r) => [r.player_name, r.score])).toEqual(expected);
      // The rank index heard of every saved score: the board and its positions follow the database.
      const board = (await v1('GET', '/v1/leaderboards/best/scores?max=0')).json().scores;
      expect(board.map((s: { player_name: string; score: number }) => [s.player_name, s.score])).toEqual(expected);
      expect((await v1('GET', '/v1/leaderboards/best/position?score=61')).json().position).toBe(3);
    });
  },
);
