import { MAX_PLAYER_DATA_BYTES } from '@howl/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import { playerGame } from '../../../test/support/players.js';
import { DIALECTS } from '../../../test/support/services.js';

// Writes that arrive together commit together (player-data/writes.ts): what each caller is told
// must be what a one-at-a-time order of the same writes would have told it.
for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: player-data writes sent at once`, () => {
    let upserts = 0;
    // Opened before playerGame's app starts (hooks run in the order they are declared), which then uses it.
    const options: { database?: Awaited<ReturnType<typeof openTestDatabase>> } = {};
    beforeAll(async () => {
      options.database = await openTestDatabase(dialect, {
        onQuery: (text) => {
          if (/^insert into "player_data"/i.test(text)) upserts++;
        },
      });
    });
    afterAll(async () => {
      await options.database?.close();
    });
    const { v1, fresh } = playerGame(dialect, options);
    const put = (player: string, body: Record<string, unknown>) =>
      v1('PUT', `/v1/player-data/${encodeURIComponent(player)}`, { body });
    const get = (player: string) => v1('GET', `/v1/player-data/${encodeURIComponent(player)}`);

    it('writes 30 documents sent at once in fewer statements on PostgreSQL, one statement each on SQLite', async () => {
      const names = Array.from({ length: 30 }, () => fresh().name);
      const before = upserts;
      const answers = await Promise.all(names.map((name, i) => put(name, { player_data: { i } })));
      expect(answers.map((r) => r.statusCode)).toEqual(names.map(() => 200));
      if (dialect === 'postgres') expect(upserts - before).toBeLessThan(15);
      else expect(upserts - before).toBe(30);
      const stored = await Promise.all(names.map((name) => get(name)));
      expect(stored.map((r) => r.json())).toEqual(answers.map((r) => r.json()));
      expect(stored.map((r) => r.json().player_data)).toEqual(names.map((_, i) => ({ i })));
    });

    it('answers 40 replaces of one document with the versions 1 to 40, each once, and keeps the one answered last', async () => {
      const name = fresh().name;
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => put(name, { player_data: { n: i } })));
      expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
      const versions = answers.map((r) => r.json().version as number);
      expect([...versions].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      const last = answers[versions.indexOf(40)]!.json();
      expect((await get(name)).json()).toEqual(last);
    });

    it('lets exactly one of ten creates with if_version 0 win; the others get 409 and the version it made', async () => {
      const name = fresh().name;
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => put(name, { player_data: { by: i }, if_version: 0 })),
      );
      const won = answers.filter((r) => r.statusCode === 200);
      expect(won).toHaveLength(1);
      for (const lost of answers.filter((r) => r.statusCode !== 200)) {
        expect(lost.statusCode).toBe(409);
        expect(lost.json().error).toMatchObject({ code: 'VersionConflict', current_version: 1 });
      }
      expect((await get(name)).json()).toEqual(won[0]!.json());
    });

    it('refuses only the document past the size limit among writes sent with it; the others are stored', async () => {
      const names = Array.from({ length: 20 }, () => fresh().name);
      const big = { pad: 'x'.repeat(MAX_PLAYER_DATA_BYTES) };
      const answers = await Promise.all(names.map((name, i) => put(name, { player_data: i === 5 ? big : { i } })));
      expect(answers.map((r) => r.statusCode)).toEqual(names.map((_, i) => (i === 5 ? 413 : 200)));
      const stored = await Promise.all(names.map((name) => get(name)));
      expect(stored.map((r) => r.json().player_data)).toEqual(names.map((_, i) => (i === 5 ? {} : { i })));
      expect(stored.map((r) => r.json().version)).toEqual(names.map((_, i) => (i === 5 ? 0 : 1)));
    });
  });
}
