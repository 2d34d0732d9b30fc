import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, gameCall, signedInDeveloper, startTestApp, type TestApp } from '../../../test/support/app.js';
import { openTestDatabase } from '../../../test/support/database.js';
import { DIALECTS } from '../../../test/support/services.js';
import { swCall } from '../../../test/support/silentwolf.js';

/**
 * A real commit-time failure for the tests: a score of a player named `doomed…` writes a row whose
 * deferred foreign key has no parent, which the database refuses at COMMIT, not before.
 */
async function doomAtCommit(t: TestApp) {
  const { db, dialect } = t.database;
  await sql`create table doom_parent (id text primary key)`.execute(db);
  await sql`create table doom (ref text references doom_parent (id) deferrable initially deferred)`.execute(db);
  if (dialect === 'sqlite') {
    await sql`create trigger doom_scores after insert on scores when new.player_name like 'doomed%'
      begin insert into doom values ('none'); end`.execute(db);
  } else {
    await sql`create function doom_row() returns trigger language plpgsql as
      $$ begin insert into doom values ('none'); return new; end $$`.execute(db);
    await sql`create trigger doom_scores after insert on scores for each row
      when (new.player_name like 'doomed%') execute function doom_row()`.execute(db);
  }
}

// Issue 19: submits that arrive together commit together, and each is answered only after its
// group's commit. Runs on both databases (several connections on PostgreSQL).
for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: score submits in groups`, () => {
    let t: TestApp;
    let cookie: string;
    let game: { game_id: string; api_key: string };
    let begins = 0;
    let inserts = 0;
    beforeAll(async () => {
      const database = await openTestDatabase(dialect, {
        onQuery: (text) => {
          if (/^begin\b/i.test(text)) begins++;
          if (/^insert into "scores"/i.test(text)) inserts++;
        },
      });
      t = await startTestApp({
        dialect,
        database,
        env: { RANK_INDEX: 'memory', GAME_API_REQUESTS_PER_IP_PER_MINUTE: '100000' },
      });
      cookie = (await signedInDeveloper(t)).cookie;
      game = (await call(t.app, 'POST', '/api/games', { body: { name: 'Groups' }, cookie })).json();
      await doomAtCommit(t);
    });
    afterAll(async () => {
      await t?.close();
      await t?.database.close();
    });

    const submit = (board: string, player_name: string, score: number) =>
      gameCall(t.app, 'POST', `/v1/leaderboards/${board}/scores`, {
        apiKey: game.api_key,
        gameId: game.game_id,
        body: { player_name, score },
      });
    const board = async (name: string, settings: Record<string, unknown>) => {
      const res = await call(t.app, 'POST', `/api/games/${game.game_id}/leaderboards`, {
        body: { name, ...settings },
        cookie,
      });
      expect(res.statusCode).toBe(201);
      await gameCall(t.app, 'GET', `/v1/leaderboards/${name}/scores?max=1`, {
        apiKey: game.api_key,
        gameId: game.game_id,
      });
    };
    const stored = async (boardName: string) =>
      (
        await t.database.db
          .selectFrom('scores')
          .innerJoin('leaderboards', 'leaderboards.id', 'scores.leaderboard_id')
          .select(['scores.id', 'scores.player_name', 'scores.score'])
          .where('leaderboards.game_id', '=', game.game_id)
          .where('leaderboards.name', '=', boardName)
          .execute()
      ).map((r) => ({ ...r, score: Number(r.score) }));
    const shown = async (boardName: string) =>
      (
        await gameCall(t.app, 'GET', `/v1/leaderboards/${boardName}/scores?max=0`, {
          apiKey: game.api_key,
          gameId: game.game_id,
        })
      ).json().scores as Array<{ score_id: string }>;

    it.each([
      { mode: 'highest', expected: (scores: number[]) => Math.max(...scores) },
      { mode: 'accumulator', expected: (scores: number[]) => scores.reduce((a, b) => a + b, 0) },
    ])(
      'answers 200 submits at once to a $mode board in fewer transactions, storing exactly what the mode says',
      async ({ mode, expected }) => {
        await board(mode, { insert_option: mode, max_entries: null });
        const sent = Array.from({ length: 200 }, (_, i) => ({ player: `p${i % 20}`, score: (i * 37) % 101 }));
        const before = begins;
        const answers = await Promise.all(sent.map((s) => submit(mode, s.player, s.score)));
        const transactions = begins - before;
        expect(answers.map((r) => r.statusCode)).toEqual(sent.map(() => 200));
        expect(transactions).toBeGreaterThan(0);
        expect(transactions).toBeLessThan(sent.length / 2);
        const rows = await stored(mode);
        const players = [...new Set(sent.map((s) => s.player))];
        expect(Object.fromEntries(rows.map((r) => [r.player_name, r.score]))).toEqual(
          Object.fromEntries(players.map((p) => [p, expected(sent.filter((s) => s.player === p).map((s) => s.score))])),
        );
        expect((await shown(mode)).map((s) => s.score_id).sort()).toEqual(rows.map((r) => r.id).sort());
      },
    );

    it('saves a group of new players in fewer statements on PostgreSQL, one per save on SQLite', async () => {
      await board('rows', { insert_option: 'latest', max_entries: null });
      const before = inserts;
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => submit('rows', `row${i}`, i)));
      expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
      if (dialect === 'postgres') expect(inserts - before).toBeLessThan(30);
      else expect(inserts - before).toBe(60);
      const rows = await stored('rows');
      expect(Object.fromEntries(rows.map((r) => [r.player_name, r.score]))).toEqual(
        Object.fromEntries(answers.map((_, i) => [`row${i}`, i])),
      );
      // Each answer names its own player's entry and where it stands (scores descending: row59 first).
      for (const [i, res] of answers.entries()) {
        expect(res.json()).toEqual({
          score_id: rows.find((r) => r.player_name === `row${i}`)!.id,
          position: 60 - i,
          kept: true,
        });
      }
    });

    it('keeps a limited keep board to its best entries when a group fills it, and answers the pushed-out saves as not kept', async () => {
      await board('few', { insert_option: 'keep', max_entries: 10 });
      const sent = Array.from({ length: 40 }, (_, i) => ({ player: `few${i}`, score: (i * 17) % 41 }));
      const answers = await Promise.all(sent.map((s) => submit('few', s.player, s.score)));
      expect(answers.map((r) => r.statusCode)).toEqual(sent.map(() => 200));
      const best = [...sent].sort((a, b) => b.score - a.score).slice(0, 10);
      const rows = await stored('few');
      expect(rows.map((r) => r.score).sort((a, b) => b - a)).toEqual(best.map((s) => s.score));
      for (const [i, res] of answers.entries()) {
        const row = rows.find((r) => r.player_name === sent[i]!.player);
        expect(res.json()).toEqual(
          row
            ? { score_id: row.id, position: best.findIndex((s) => s.player === sent[i]!.player) + 1, kept: true }
            : { score_id: expect.any(String), position: null, kept: false },
        );
      }
      expect((await shown('few')).map((s) => s.score_id).sort()).toEqual(rows.map((r) => r.id).sort());
    });

    it('gives a score id sent three times in one group to one save and fresh ones to the others', async () => {
      await board('ids', { insert_option: 'latest', max_entries: null });
      const scoreId = '6f1d2c3b-4a59-4e8f-9a7b-0c1d2e3f4a5b';
      const answers = await Promise.all(
        // The SilentWolf plugin's save sends the client's id (the game API makes its own). The first
        // save's group starts at once; the three after it wait for the next, together.
        ['id-first', 'id-a', 'id-b', 'id-c'].map((player_name, i) =>
          swCall(t, game, 'POST', '/save_score', {
            body: { ldboard_name: 'ids', player_name, score: i, ...(i > 0 ? { score_id: scoreId } : {}) },
          }),
        ),
      );
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      const ids = answers.slice(1).map((r) => r.json().score_id as string);
      // Which of the three keeps it is the order they reach the group in: a game's first SilentWolf
      // calls each note the client's version first, on PostgreSQL over several connections, which
      // answer in any order (as any client's concurrent calls may arrive).
      expect(ids.filter((id) => id === scoreId)).toHaveLength(1);
      expect(new Set(ids).size).toBe(3);
      const rows = await stored('ids');
      expect(Object.fromEntries(rows.map((r) => [r.player_name, r.id]))).toEqual({
        'id-first': answers[0]!.json().score_id,
        'id-a': ids[0],
        'id-b': ids[1],
        'id-c': ids[2],
      });
    });

    it('answers a highest save that does not beat the player with the entry that stands, in a group of saves that do', async () => {
      await board('best', { insert_option: 'highest', max_entries: null });
      const first = await submit('best', 'steady', 90);
      expect(first.statusCode).toBe(200);
      const answers = await Promise.all([
        submit('best', 'climber', 95),
        submit('best', 'steady', 10),
        submit('best', 'newcomer', 50),
      ]);
      expect(answers.map((r) => r.json())).toEqual([
        { score_id: expect.any(String), position: 1, kept: true },
        { score_id: first.json().score_id, position: 2, kept: false },
        { score_id: expect.any(String), position: 3, kept: true },
      ]);
      expect(Object.fromEntries((await stored('best')).map((r) => [r.player_name, r.score]))).toEqual({
        steady: 90,
        climber: 95,
        newcomer: 50,
      });
    });

    it('saves with the settings it finds under the lock when the kept board is from before a change, in one transaction', async () => {
      await board('changing', { insert_option: 'keep', max_entries: null });
      expect((await submit('changing', 'a player', 50)).statusCode).toBe(200);
      // Another process changed the mode (converting the entries, a new generation); this one has not heard yet.
      const { id } = await t.database.db
        .updateTable('leaderboards')
        .set((eb) => ({ insert_option: 'highest', generation: eb('generation', '+', 1) }))
        .where('game_id', '=', game.game_id)
        .where('name', '=', 'changing')
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.database.db
        .updateTable('scores')
        .set((eb) => ({ player_key: eb.ref('player_name') }))
        .where('leaderboard_id', '=', id)
        .execute();
      const before = begins;
      const lower = await submit('changing', 'a player', 10);
      expect(begins - before).toBe(1);
      expect(lower.statusCode).toBe(200);
      // `highest` keeps the better entry; `keep` would have added a second row.
      expect(lower.json()).toMatchObject({ kept: false, position: 1 });
      expect((await stored('changing')).map((r) => r.score)).toEqual([50]);
      expect((await shown('changing')).length).toBe(1);
    });

    it('fails only the save the database refuses at commit; the others of its group are stored and answered', async () => {
      await board('mixed', { insert_option: 'keep', max_entries: null });
      const names = Array.from({ length: 40 }, (_, i) => (i === 7 || i === 30 ? `doomed${i}` : `fine${i}`));
      const answers = await Promise.all(names.map((n, i) => submit('mixed', n, i)));
      expect(answers.map((r) => r.statusCode)).toEqual(names.map((n) => (n.startsWith('doomed') ? 500 : 200)));
      const rows = await stored('mixed');
      expect(rows.map((r) => r.player_name).sort()).toEqual(names.filter((n) => n.startsWith('fine')).sort());
      expect(rows.map((r) => r.id).sort()).toEqual(
        answers
          .filter((r) => r.statusCode === 200)
          .map((r) => r.json().score_id as string)
          .sort(),
      );
      expect((await shown('mixed')).map((s) => s.score_id).sort()).toEqual(rows.map((r) => r.id).sort());
    });

    it('acknowledges nothing of a group whose commit fails: every save is refused and none is stored or ranked', async () => {
      await board('doomed', { insert_option: 'keep', max_entries: null });
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => submit('doomed', `doomed${i}`, i)));
      expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 500));
      expect(await stored('doomed')).toEqual([]);
      expect(await shown('doomed')).toEqual([]);
    });
  });
}
