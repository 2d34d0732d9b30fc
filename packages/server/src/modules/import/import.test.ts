import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { call, signedInDeveloper, STRONG_PASSWORD } from '../../../test/support/app.js';
import { IMPORT_SETUPS, importGames } from '../../../test/support/imports.js';

const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);

for (const { dialect, skip, index, redis } of IMPORT_SETUPS) {
  describe.skipIf(skip)(`${dialect}, ${index} index: importing a game's data`, () => {
    const { ctx, console: consoleCall, fresh, game, v1Of } = importGames(dialect, redis);
    const scoresOf = async (res: Awaited<ReturnType<ReturnType<typeof v1Of>>>) =>
      (res.json().scores as Array<Record<string, unknown>>).map(
        ({ score_id, player_name, score, timestamp, metadata, position }) => ({
          score_id,
          player_name,
          score,
          timestamp,
          metadata,
          position,
        }),
      );

    it('imports scores in both key sets with their ids, names and timestamps, ranked as saved', async () => {
      const g = await game();
      const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
      const res = await g.importing({
        leaderboards: [
          {
            name: 'main',
            scores: [
              { sid: a, pn: 'Ana', s: 50, t: T0 + 2000, md: { level: 3 } },
              { score_id: b, player_name: 'Bo', score: 50, timestamp: T0 + 1000 },
              { sid: c, pn: 'Cy', s: 90.5, t: T0 },
            ],
          },
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        scores: { imported: 3, skipped: 0 },
        players: { imported: 0, skipped: 0, without_email: 0 },
        player_data: { imported: 0 },
      });
      expect(await scoresOf(await g.read('main'))).toEqual([
        { score_id: c, player_name: 'Cy', score: 90.5, timestamp: T0, metadata: null, position: 1 },
        { score_id: b, player_name: 'Bo', score: 50, timestamp: T0 + 1000, metadata: null, position: 2 },
        { score_id: a, player_name: 'Ana', score: 50, timestamp: T0 + 2000, metadata: { level: 3 }, position: 3 },
      ]);
      // Short keys are the Godot 4 plugin's, long keys Godot 3's: the dashboard shows both engines.
      const boards = (await consoleCall('GET', '/leaderboards', undefined, g.game_id)).json().leaderboards;
      expect(boards.find((x: { name: string }) => x.name === 'main')).toMatchObject({ engine: 'both', entry_count: 3 });
    });

    it("applies each board's save mode, and a second run of the same file adds nothing", async () => {
      const g = await game();
      const rows = [
        { sid: randomUUID(), pn: 'Ana', s: 10, t: T0 },
        { sid: randomUUID(), pn: 'Ana', s: 30, t: T0 + 1 },
        { sid: randomUUID(), pn: 'Ana', s: 20, t: T0 + 2 },
        { sid: randomUUID(), pn: 'Bo', s: 5, t: T0 },
      ];
      const body = {
        leaderboards: ['main', 'highest', 'latest', 'accumulator'].map((name) => ({
          name,
          scores: rows.map((r) => ({ ...r, sid: name === 'main' ? r.sid : randomUUID() })),
        })),
      };
      const first = await g.importing(body);
      expect(first.statusCode, first.body).toBe(200);
      // keep 4; highest and latest keep 2 of 4 each; accumulator sums all 4 into 2 entries.
      expect(first.json().scores).toEqual({ imported: 4 + 2 + 2 + 4, skipped: 2 + 2 });
      const standings = async (board: string) =>
        (await scoresOf(await g.read(board))).map((s) => [s.player_name, s.score, s.timestamp]);
      expect(await standings('main')).toEqual([
        ['Ana', 30, T0 + 1],
        ['Ana', 20, T0 + 2],
        ['Ana', 10, T0],
        ['Bo', 5, T0],
      ]);
      expect(await standings('highest')).toEqual([
        ['Ana', 30, T0 + 1],
        ['Bo', 5, T0],
      ]);
      expect(await standings('latest')).toEqual([
        ['Ana', 20, T0 + 2],
        ['Bo', 5, T0],
      ]);
      expect(await standings('accumulator')).toEqual([
        ['Ana', 60, T0 + 2],
        ['Bo', 5, T0],
      ]);

      const again = await g.importing(body);
      expect(again.json().scores).toEqual({ imported: 0, skipped: 16 });
      expect(await standings('main')).toHaveLength(4);
      expect(await standings('accumulator')).toEqual([
        ['Ana', 60, T0 + 2],
        ['Bo', 5, T0],
      ]);
    });

    it('keeps a better score already on a highest board, and gives a new id to one used in another game', async () => {
      const g = await game();
      const other = await game();
      const used = randomUUID();
      await other.importing({ leaderboards: [{ name: 'main', scores: [{ sid: used, pn: 'Zed', s: 1 }] }] });
      await v1Of(g)('POST', '/v1/leaderboards/highest/scores', { body: { player_name: 'Ana', score: 100 } });
      const res = await g.importing({
        leaderboards: [
          { name: 'highest', scores: [{ sid: randomUUID(), pn: 'Ana', s: 99, t: T0 }] },
          {
            name: 'main',
            scores: [
              { sid: used, pn: 'Bo', s: 7, t: T0 },
              { sid: 'not-a-uuid', pn: 'Cy', s: 6, t: T0 },
            ],
          },
        ],
      });
      expect(res.json().scores).toEqual({ imported: 2, skipped: 1 });
      expect((await scoresOf(await g.read('highest'))).map((s) => s.score)).toEqual([100]);
      const main = await scoresOf(await g.read('main'));
      expect(main.map((s) => s.player_name)).toEqual(['Bo', 'Cy']);
      expect(main[0]!.score_id).not.toBe(used);
      expect(main[1]!.score_id).toMatch(/^[0-9a-f-]{36}$/);
      expect((await scoresOf(await other.read('main')))[0]!.score_id).toBe(used);
    });

    it('keeps every improved save made while an import writes the same highest board', async () => {
      const g = await game();
      const imported = Array.from({ length: 200 }, (_, i) => ({ pn: `p${i}`, s: 100, t: T0 + i }));
      const save = (i: number, score: number) =>
        v1Of(g)('POST', '/v1/leaderboards/highest/scores', { body: { player_name: `p${i}`, score } });
      // Better saves for p0..p7 and worse ones for p8..p15, on their own connections, during the import.
      const [importAnswer, ...saves] = await Promise.all([
        g.importing({ leaderboards: [{ name: 'highest', scores: imported }] }),
        ...Array.from({ length: 8 }, (_, i) => save(i, 500)),
        ...Array.from({ length: 8 }, (_, i) => save(8 + i, 1)),
      ]);
      expect(importAnswer.statusCode, importAnswer.body).toBe(200);
      expect(saves.map((r) => r.statusCode)).toEqual(Array(16).fill(200));
      const rows = await scoresOf(await g.read('highest'));
      const best = new Map(rows.map((r) => [r.player_name, r.score]));
      expect([rows.length, best.size]).toEqual([200, 200]);
      for (let i = 0; i < 8; i++) expect(best.get(`p${i}`), `p${i}`).toBe(500);
      for (let i = 8; i < 16; i++) expect(best.get(`p${i}`), `p${i}`).toBe(100);
      // The rank index follows the database: positions run 1..200 in the board's order.
      expect(rows.map((r) => r.position)).toEqual(rows.map((_, i) => i + 1));
    });

    it('refuses a bad row, naming it, and writes nothing', async () => {
      const g = await game();
      const res = await g.importing({
        leaderboards: [
          {
            name: 'main',
            scores: [
              { pn: 'Ana', s: 1 },
              { pn: 'Bo', s: 'ten' },
            ],
          },
        ],
        players: [{ pn: 'Ana', em: 'ana@example.com' }],
        player_data: { Ana: { coins: 3 } },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'InvalidParameter',
        message: 'The score must be a number.',
        field: 'leaderboards.0.scores.1.s',
      });
      const missing = await g.importing({ players: [{ em: 'x@example.com' }] });
      expect(missing.json().error).toMatchObject({ field: 'players.0.player_name' });
      const bigMeta = await g.importing({
        leaderboards: [{ name: 'main', scores: [{ pn: 'Ana', s: 1, md: { x: 'y'.repeat(5000) } }] }],
      });
      expect(bigMeta.json().error).toMatchObject({ field: 'leaderboards.0.scores.0.md' });
      expect(bigMeta.json().error.message).toMatch(/limit is 4096 bytes/);
      expect((await g.read('main')).json().scores).toEqual([]);
      expect((await consoleCall('GET', '/players', undefined, g.game_id)).json().players).toEqual([]);
    });

    it('refuses a score outside the game API range, and holds an accumulator total at its end', async () => {
      const g = await game();
      const big = await g.importing({ leaderboards: [{ name: 'main', scores: [{ pn: 'Ana', s: 1e16 }] }] });
      expect(big.statusCode).toBe(400);
      expect(big.json().error).toEqual({
        code: 'InvalidParameter',
        message: 'The score must be a number between -1000000000000000 and 1000000000000000.',
        field: 'leaderboards.0.scores.0.s',
      });
      const rows = (sign: number) =>
        [0, 1, 2].map((i) => ({ sid: randomUUID(), pn: sign > 0 ? 'Up' : 'Down', s: sign * 9e14, t: T0 + i }));
      const first = await g.importing({ leaderboards: [{ name: 'accumulator', scores: [...rows(1), ...rows(-1)] }] });
      expect(first.statusCode, first.body).toBe(200);
      const again = await g.importing({ leaderboards: [{ name: 'accumulator', scores: rows(1) }] });
      expect(again.statusCode, again.body).toBe(200);
      const standings = (await scoresOf(await g.read('accumulator'))).map((r) => [r.player_name, r.score]);
      expect(standings).toEqual([
        ['Up', 1e15],
        ['Down', -1e15],
      ]);
    });

    it('words a bad player data section by its whole path', async () => {
      const g = await game();
      const asText = await g.importing({ player_data: 'x' });
      expect(asText.json().error).toEqual({
        code: 'InvalidParameter',
        message: 'player_data must be a JSON object of players or a list of entries.',
        field: 'player_data',
      });
      const listOfNumbers = await g.importing({ player_data: [5] });
      expect(listOfNumbers.json().error).toEqual({
        code: 'InvalidParameter',
        message: 'player_data.0 must be a JSON object.',
        field: 'player_data.0',
      });
    });

    it('refuses an unknown board by name before writing anything', async () => {
      const g = await game();
      const res = await g.importing({
        leaderboards: [
          { name: 'main', scores: [{ pn: 'Ana', s: 1 }] },
          { name: 'weekly', scores: [{ pn: 'Ana', s: 1 }] },
        ],
        players: [{ pn: 'Ana' }],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'InvalidParameter', field: 'leaderboards.1.name' });
      expect(res.json().error.message).toContain('no leaderboard named "weekly"');
      expect((await g.read('main')).json().scores).toEqual([]);
      expect((await consoleCall('GET', '/players', undefined, g.game_id)).json().players).toEqual([]);
    });

    it('refuses more than 50,000 scores and a body over 20 MB', async () => {
      const g = await game();
      const many = Array.from({ length: 25_001 }, () => ({ pn: 'a', s: 1 }));
      const res = await g.importing({
        leaderboards: [
          { name: 'main', scores: many },
          { name: 'highest', scores: many },
        ],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ field: 'leaderboards' });
      expect(res.json().error.message).toContain(
        'at most 50000 scores; this one has 50002. Split it into several calls.',
      );
      const one = await g.importing({ leaderboards: [{ name: 'main', scores: [...many, ...many] }] });
      expect(one.statusCode).toBe(400);
      expect(one.json().error).toEqual({
        code: 'InvalidParameter',
        message: 'An import can hold at most 50000 scores. Split it into several calls.',
        field: 'leaderboards.0.scores',
      });
      const huge = await g.importing({ player_data: { Ana: { blob: 'x'.repeat(21 * 1024 * 1024) } } });
      expect(huge.statusCode).toBe(413);
      expect(huge.json().error.code).toBe('PayloadTooLarge');
      expect((await g.read('main')).json().scores).toEqual([]);
    }, 60_000);

    it.skipIf(dialect !== 'postgres' || redis)(
      "reads a player's scores and documents through their own index right after a large import (PostgreSQL's statistics)",
      async () => {
        const g = await game();
        const scores = Array.from({ length: 3000 }, (_, i) => ({ pn: `bulk${i % 1500}`, s: i, t: T0 + i }));
        const docs = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`bulk${i}`, { level: i }]));
        const res = await g.importing({ leaderboards: [{ name: 'main', scores }], player_data: docs });
        expect(res.statusCode).toBe(200);
        const planOf = async (query: ReturnType<typeof sql>) =>
          (await query.execute(ctx.t.database.db)).rows
            .map((r) => (r as Record<string, string>)['QUERY PLAN'])
            .join('\n');
        // Without statistics the planner walks the whole board in rank order for one player, and
        // reads every document of the game to find a few.
        expect(
          await planOf(sql`explain select * from scores
            where leaderboard_id = (select id from leaderboards where game_id = ${g.game_id} and name = 'main')
            and period_start = 0 and player_name = 'bulk7' order by score desc, timestamp, id limit 10`),
        ).toContain('scores_player');
        const docPlan = await planOf(sql`explain select * from player_data where
          (game_id = ${g.game_id} and player_name = 'bulk7' and character_name = '')
          or (game_id = ${g.game_id} and player_name = 'bulk8' and character_name = '')`);
        expect(docPlan).not.toMatch(/Filter: .*player_name/);
        const mine = await v1Of(g)('GET', '/v1/leaderboards/main/players/bulk7/scores');
        expect(mine.json().scores.map((e: { score: number }) => e.score)).toEqual([1507, 7]);
        expect((await v1Of(g)('GET', '/v1/player-data/bulk7')).json().player_data).toEqual({ level: 7 });
      },
    );

    it('creates players who must reset their password, skips existing names, and imports their data', async () => {
      const g = await game();
      const existing = fresh();
      await v1Of(g)('POST', '/v1/players', {
        body: {
          player_name: existing.name,
          email: existing.email,
          password: STRONG_PASSWORD,
          confirm_password: STRONG_PASSWORD,
        },
      });
      const ana = fresh('ana');
      const res = await g.importing({
        players: [
          { pn: ana.name, em: ana.email, en: true, st: 'CONFIRMED', co: 1_700_000_000, pd: { coins: 1 }, pid: 'x' },
          { player_name: 'NoMail', enabled: false },
          { pn: existing.name, em: 'other@example.com' },
        ],
        player_data: [{ player_name: 'NoMail', player_data: { level: 2 } }],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        scores: { imported: 0, skipped: 0 },
        players: { imported: 2, skipped: 1, without_email: 1 },
        player_data: { imported: 2 },
      });
      const listed = (await consoleCall('GET', '/players', undefined, g.game_id)).json().players;
      expect(listed.find((p: { player_name: string }) => p.player_name === ana.name)).toMatchObject({
        email: ana.email,
        enabled: true,
        state: 'RESET_REQUIRED',
        created_at: 1_700_000_000,
        player_data: { coins: 1 },
      });
      expect(listed.find((p: { player_name: string }) => p.player_name === 'NoMail')).toMatchObject({
        email: null,
        enabled: false,
        state: 'RESET_REQUIRED',
      });
      expect(listed.find((p: { player_name: string }) => p.player_name === existing.name).email).toBe(existing.email);

      // No password works until the player sets one with the emailed reset code.
      const play = v1Of(g);
      expect(
        (await play('POST', '/v1/players/login', { body: { player_name: ana.name, password: '' } })).statusCode,
      ).toBe(400);
      // Any password: the answer says what to do, and nothing about the password.
      expect(
        (await play('POST', '/v1/players/login', { body: { player_name: ana.name, password: STRONG_PASSWORD } })).json()
          .error.code,
      ).toBe('PasswordResetRequired');
      expect((await play('POST', '/v1/players/password-reset', { body: { player_name: ana.name } })).statusCode).toBe(
        200,
      );
      const code = ctx.t.smtp.lastCode(ana.email);
      const set = await play('POST', '/v1/players/password-reset/confirm', {
        body: { player_name: ana.name, code, password: STRONG_PASSWORD, confirm_password: STRONG_PASSWORD },
      });
      expect(set.statusCode, set.body).toBe(200);
      const logged = await play('POST', '/v1/players/login', {
        body: { player_name: ana.name, password: STRONG_PASSWORD },
      });
      expect(logged.json().player).toEqual({ player_name: ana.name, email: ana.email, state: 'CONFIRMED' });
      expect(
        (await play('POST', '/v1/players/password-reset', { body: { player_name: 'NoMail' } })).json().error.message,
      ).toContain('has no email address');

      // The data reads back through the game API.
      const data = await play('GET', `/v1/player-data/NoMail`);
      expect(data.json()).toMatchObject({ player_name: 'NoMail', player_data: { level: 2 }, version: 1 });

      const again = await g.importing({ players: [{ pn: ana.name }], player_data: { NoMail: { level: 3 } } });
      expect(again.json().players).toEqual({ imported: 0, skipped: 1, without_email: 0 });
      expect((await play('GET', `/v1/player-data/NoMail`)).json()).toMatchObject({
        player_data: { level: 3 },
        version: 2,
      });
    });

    it("answers 401 signed out and 404 on another developer's game", async () => {
      const g = await game();
      const body = { leaderboards: [{ name: 'main', scores: [{ pn: 'Ana', s: 1 }] }] };
      const out = await call(ctx.t.app, 'POST', `/api/games/${g.game_id}/import`, { body });
      expect(out.statusCode).toBe(401);
      const intruder = (await signedInDeveloper(ctx.t)).cookie;
      const theirs = await call(ctx.t.app, 'POST', `/api/games/${g.game_id}/import`, { body, cookie: intruder });
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json().error.code).toBe('NotFound');
      expect((await g.read('main')).json().scores).toEqual([]);
    });
  });
}
