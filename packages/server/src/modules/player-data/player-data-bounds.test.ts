import { MAX_PLAYER_DATA_BYTES } from '@howl/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import { playerGame } from '../../../test/support/players.js';
import { DIALECTS } from '../../../test/support/services.js';
import { statementLog } from '../../../test/support/statement-log.js';

// What the body alone decides is decided before the database is asked, and a key a document can
// hold can be named again to remove it.
for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: player data bounds`, () => {
    const { hooks, made } = statementLog();
    // Opened before playerGame's app starts (hooks run in the order they are declared), which then uses it.
    const options: { database?: Awaited<ReturnType<typeof openTestDatabase>> } = {};
    beforeAll(async () => {
      options.database = await openTestDatabase(dialect, hooks);
    });
    afterAll(async () => {
      await options.database?.close();
    });
    const { v1, fresh } = playerGame(dialect, options);
    const path = (player: string) => `/v1/player-data/${encodeURIComponent(player)}`;

    it('refuses a player_data past the limit on its own with 413 and no statement, whatever the way of writing', async () => {
      const name = fresh().name;
      const big = { pad: 'x'.repeat(1_000_000) };
      const bytes = JSON.stringify(big).length;
      for (const extra of [{}, { overwrite: false }, { if_version: 0 }, { overwrite: false, if_version: 0 }]) {
        const answers: Array<Awaited<ReturnType<typeof v1>>> = [];
        const sent = await made(async () => {
          answers.push(await v1('PUT', path(name), { body: { player_data: big, ...extra } }));
        });
        expect(answers[0]!.statusCode).toBe(413);
        expect(answers[0]!.json().error).toMatchObject({
          code: 'PlayerDataTooLarge',
          message: `This player data would be ${bytes} bytes; the limit is ${MAX_PLAYER_DATA_BYTES} bytes. Nothing was saved.`,
        });
        // The front door's read of the game (kept afterwards) is all the database heard.
        expect(sent.filter((s) => !s.startsWith('select * from "games"'))).toEqual([]);
      }
      expect((await v1('GET', path(name))).json()).toMatchObject({ player_data: {}, version: 0 });
    });

    it('still refuses a merge that grows the stored document past the limit, in its group', async () => {
      const name = fresh().name;
      const half = 'x'.repeat(MAX_PLAYER_DATA_BYTES / 2);
      expect((await v1('PUT', path(name), { body: { player_data: { a: half } } })).statusCode).toBe(200);
      const grow = await v1('PUT', path(name), { body: { player_data: { b: half }, overwrite: false } });
      expect(grow.statusCode).toBe(413);
      expect(grow.json().error.message).toContain(`would be ${JSON.stringify({ a: half, b: half }).length} bytes`);
      expect((await v1('GET', path(name))).json()).toMatchObject({ player_data: { a: half }, version: 1 });
    });

    it('removes a key of any length a document holds, and refuses a 1,001st key', async () => {
      const name = fresh().name;
      const long = 'k'.repeat(MAX_PLAYER_DATA_BYTES - 20);
      expect((await v1('PUT', path(name), { body: { player_data: { [long]: 1, b: 2 } } })).statusCode).toBe(200);
      const removed = await v1('DELETE', path(name), { body: { keys: [long] } });
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toMatchObject({ player_data: { b: 2 }, version: 2 });
      const many = await v1('DELETE', path(name), { body: { keys: Array.from({ length: 1001 }, (_, i) => `k${i}`) } });
      expect(many.statusCode).toBe(400);
      expect(many.json().error).toMatchObject({
        code: 'InvalidParameter',
        message: 'keys can name at most 1000 keys.',
      });
      expect((await v1('GET', path(name))).json()).toMatchObject({ player_data: { b: 2 }, version: 2 });
    });
  });
}
