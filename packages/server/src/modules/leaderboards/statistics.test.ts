import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, gameCall, signedInDeveloper, startTestApp, type TestApp } from '../../../test/support/app.js';
import { openTestDatabase } from '../../../test/support/database.js';
import { DIALECTS } from '../../../test/support/services.js';
import { STATISTICS_AFTER_ROWS, STATISTICS_EVERY_ROWS } from '../../db/dialect-sql.js';

const postgres = DIALECTS.find((d) => d.dialect === 'postgres')!;

// A board that fills after the table's statistics were gathered is planned as empty: a lookup of a
// player's entry (a `highest` save that did not beat it, a player's scores) then walks the whole
// period in rank order. Submits gather the statistics again as they add entries.
describe.skipIf(postgres.skip)("postgres: the planner follows a board's growth", () => {
  let t: TestApp;
  // Every statement the app ran, in the order they ended.
  const statements: string[] = [];
  let cookie: string;
  let game: { game_id: string; api_key: string };
  beforeAll(async () => {
    const database = await openTestDatabase('postgres', { onQuery: (text) => statements.push(text) });
    t = await startTestApp({ dialect: 'postgres', database });
    cookie = (await signedInDeveloper(t)).cookie;
    game = (await call(t.app, 'POST', '/api/games', { body: { name: 'Statistics' }, cookie })).json();
  });
  afterAll(async () => {
    await t?.close();
    await t?.database.close();
  });

  const boardId = async (name: string) => {
    await call(t.app, 'POST', `/api/games/${game.game_id}/leaderboards`, {
      body: { name, insert_option: name === 'big' ? 'keep' : 'highest', max_entries: null },
      cookie,
    });
    const row = await t.database.db
      .selectFrom('leaderboards')
      .select('id')
      .where('game_id', '=', game.game_id)
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return row.id;
  };
  /** Entries written straight into the table, as if they had come before the last statistics. */
  const fill = (board: string, rows: number) =>
    sql`insert into scores (id, leaderboard_id, period_start, player_name, player_key, score, timestamp)
      select ${board} || '-' || n, ${board}, 0, 'p' || n, 'p' || n, n, n from generate_series(1, ${rows}) as n`.execute(
      t.database.db,
    );
  /** The plan of a lookup of two players' entries (store.findPlayerEntries). */
  const lookup = async (board: string) => {
    const plan = await sql<{ 'QUERY PLAN': string }>`explain select * from scores
      where leaderboard_id = ${board} and period_start = 0 and player_key in ('p1', 'p2')`.execute(t.database.db);
    return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
  };
  // An index search bounded by the board and period alone, the player only filtered.
  const walksPeriod = (plan: string) => !/Index Cond: .*player_key/.test(plan);

  it('looks up a player by the one-entry key once submits have added enough entries', async () => {
    // A big board the statistics know, then a new one they do not: past a tenth of the table,
    // autovacuum would gather them on its own.
    const big = await boardId('big');
    await fill(big, 100_000);
    await sql`analyze scores`.execute(t.database.db);
    const best = await boardId('best');
    await fill(best, 3_000);
    expect(walksPeriod(await lookup(best))).toBe(true);

    const names = Array.from({ length: STATISTICS_EVERY_ROWS }, (_, i) => `new${i}`);
    for (let i = 0; i < names.length; i += 250) {
      const answers = await Promise.all(
        names.slice(i, i + 250).map((player_name) =>
          gameCall(t.app, 'POST', '/v1/leaderboards/best/scores', {
            apiKey: game.api_key,
            gameId: game.game_id,
            body: { player_name, score: 1 },
          }),
        ),
      );
      expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    }
    // The statistics are gathered beside the requests: wait for the plan to change.
    let plan = await lookup(best);
    for (let waited = 0; walksPeriod(plan) && waited < 20_000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      plan = await lookup(best);
    }
    expect(plan).toMatch(/Index Scan using scores_one_entry .*\n.*Index Cond: .*player_key = ANY/);
  }, 120_000);

  // A load walks `scores_rank` alone only where the table's pages are marked all-visible, which a
  // vacuum does; autovacuum comes only after a fifth of the table changed.
  it('gathers statistics before a large import answers, and vacuums the tables beside the requests after', async () => {
    await boardId('imported');
    const scores = Array.from({ length: STATISTICS_AFTER_ROWS }, (_, i) => ({ sid: randomUUID(), pn: `i${i}`, s: i }));
    const docs = Object.fromEntries(Array.from({ length: STATISTICS_AFTER_ROWS }, (_, i) => [`i${i}`, { level: i }]));
    const before = statements.length;
    const res = await call(t.app, 'POST', `/api/games/${game.game_id}/import`, {
      body: { leaderboards: [{ name: 'imported', scores }], player_data: docs },
      cookie,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      scores: { imported: STATISTICS_AFTER_ROWS, skipped: 0 },
      player_data: { imported: STATISTICS_AFTER_ROWS },
    });
    const ran = (wanted: string[]) => wanted.filter((q) => statements.slice(before).includes(q));
    const analyzed = ['analyze "scores"', 'analyze "player_data"'];
    expect(ran(analyzed)).toEqual(analyzed);
    const vacuumed = ['vacuum "scores"', 'vacuum "player_data"'];
    for (let waited = 0; ran(vacuumed).length < vacuumed.length && waited < 20_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(ran(vacuumed)).toEqual(vacuumed);
  });
});
