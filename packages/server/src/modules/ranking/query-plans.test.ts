import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, gameCall, signedInDeveloper, startTestApp, type TestApp } from '../../../test/support/app.js';
import { openTestDatabase } from '../../../test/support/database.js';
import { DIALECTS } from '../../../test/support/services.js';
import { loadQuery } from './load-chunks.js';

interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

// An index search constrained by nothing but the board and period still reads the whole board period.
// SQLite's plan says which columns bound the search, so this check is exact there; PostgreSQL also
// lists filter-only columns in its Index Cond, so there it catches full scans and unbounded walks.
const WHOLE_PERIOD_SQLITE = /USING (COVERING )?INDEX \w+ \(leaderboard_id=\? AND period_start=\?\)$/;
const wholePeriodPg = (condition: string) =>
  condition.includes('leaderboard_id') && !/player_name|player_key|\bid\b|score|timestamp/.test(condition);

/** Plan nodes that read a table, or a board period, whole. */
function fullScans(dialect: 'sqlite' | 'postgres', plan: unknown): string[] {
  if (dialect === 'sqlite') {
    return (plan as Array<{ detail: string }>)
      .map((r) => r.detail)
      .filter((d) => (/^SCAN \w+/.test(d) && !/^SCAN CONSTANT/.test(d)) || WHOLE_PERIOD_SQLITE.test(d));
  }
  const found: string[] = [];
  const walk = (node: Record<string, unknown>) => {
    const type = String(node['Node Type']);
    // Bitmap index scans name their index, not their table.
    const relation = node['Relation Name'] ?? node['Index Name'];
    const condition = node['Index Cond'] as string | undefined;
    const whole = type === 'Seq Scan' || (/Index/.test(type) && (!condition || wholePeriodPg(condition)));
    if (relation && whole) found.push(`${type} on ${String(relation)}${condition ? ` (${condition})` : ''}`);
    for (const child of (node['Plans'] as Array<Record<string, unknown>> | undefined) ?? []) walk(child);
  };
  for (const root of plan as Array<{ Plan: Record<string, unknown> }>) walk(root.Plan);
  return found;
}

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: game API statements never scan a board`, () => {
    let t: TestApp;
    let recording = false;
    const statements: Statement[] = [];
    let game: { game_id: string; api_key: string };
    const v1 = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      gameCall(t.app, method, url, {
        apiKey: game.api_key,
        gameId: game.game_id,
        ...(body === undefined ? {} : { body }),
      });

    beforeAll(async () => {
      const database = await openTestDatabase(dialect, {
        onQuery: (text, parameters) => {
          if (recording) statements.push({ sql: text, parameters });
        },
      });
      t = await startTestApp({ dialect, database, env: { RANK_INDEX: 'memory' } });
      const { cookie } = await signedInDeveloper(t);
      game = (await call(t.app, 'POST', '/api/games', { body: { name: 'Plans' }, cookie })).json();
      for (const mode of ['keep', 'highest', 'latest', 'accumulator']) {
        await call(t.app, 'POST', `/api/games/${game.game_id}/leaderboards`, {
          body: { name: mode, insert_option: mode, max_entries: 10 },
          cookie,
        });
      }
      // Boards past their size, so saves trim, and the indexes loaded before anything is recorded.
      for (const mode of ['keep', 'highest', 'latest', 'accumulator']) {
        for (let i = 0; i < 15; i++)
          await v1('POST', `/v1/leaderboards/${mode}/scores`, { player_name: `p${i}`, score: i });
        await v1('GET', `/v1/leaderboards/${mode}/scores?max=1`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    const explain = async (s: Statement): Promise<unknown> =>
      dialect === 'sqlite'
        ? (await t.database.db.executeQuery(CompiledQuery.raw(`explain query plan ${s.sql}`, [...s.parameters]))).rows
        : await t.database.db.transaction().execute(async (trx) => {
            // With sequential scans priced out, a table read whole can only show up as one.
            await sql`set local enable_seqscan = off`.execute(trx);
            const res = await trx.executeQuery<{ 'QUERY PLAN': unknown }>(
              CompiledQuery.raw(`explain (format json) ${s.sql}`, [...s.parameters]),
            );
            return res.rows[0]!['QUERY PLAN'];
          });

    afterAll(async () => {
      await t?.close();
      await t?.database.close();
    });

    it('loads a period into the in-process index from scores_rank alone, never reading a row', async () => {
      if (dialect === 'postgres') await sql`vacuum analyze scores`.execute(t.database.db);
      const { id: boardId } = await t.database.db
        .selectFrom('leaderboards')
        .select('id')
        .where('game_id', '=', game.game_id)
        .where('name', '=', 'keep')
        .executeTakeFirstOrThrow();
      const board = { boardId, periodStart: 0, sort: 'desc' as const, generation: 0 };
      const key = { score: 3, timestamp: 0, player_name: 'p3', id: '' };
      for (const last of [undefined, key]) {
        const plan = await explain(loadQuery(t.database.db, board, last, 100));
        if (dialect === 'sqlite') {
          // The chunk walks the index in order once, as a co-routine the JSON columns read in turn: no sort.
          expect((plan as Array<{ detail: string }>).map((r) => r.detail)).toEqual([
            'CO-ROUTINE chunk',
            expect.stringContaining('SEARCH scores USING COVERING INDEX scores_rank'),
            'SCAN chunk',
          ]);
        } else {
          // The JSON columns aggregate the index's walk as it comes: no sort.
          expect(JSON.stringify(plan)).toMatch(
            /"Node Type":"Index Only Scan","Parent Relationship":"Outer",[^}]*"Index Name":"scores_rank"/,
          );
          expect(JSON.stringify(plan)).not.toContain('"Node Type":"Sort"');
        }
      }
    });

    it('runs no full scan, window function, OFFSET or COUNT for submit, top, position, around and player calls', async () => {
      recording = true;
      for (const mode of ['keep', 'highest', 'latest', 'accumulator']) {
        const { score_id } = (
          await v1('POST', `/v1/leaderboards/${mode}/scores`, { player_name: 'p3', score: 20 })
        ).json();
        await v1('GET', `/v1/leaderboards/${mode}/scores?max=10`);
        await v1('GET', `/v1/leaderboards/${mode}/scores?max=100`);
        await v1('GET', `/v1/leaderboards/${mode}/position?score_id=${score_id}`);
        await v1('GET', `/v1/leaderboards/${mode}/position?score=7`);
        await v1('GET', `/v1/leaderboards/${mode}/around?score_id=${score_id}&count=3`);
        await v1('GET', `/v1/leaderboards/${mode}/players/p3/scores`);
        await v1('GET', `/v1/leaderboards/${mode}/players/p3/top`);
      }
      recording = false;

      // Transaction control has no plan.
      const planned = statements.filter((s) => !/^(begin|commit|rollback)\b/i.test(s.sql));
      const distinct = [...new Map(planned.map((s) => [s.sql, s])).values()];
      expect(distinct.length).toBeGreaterThan(5);
      const problems: string[] = [];
      for (const s of distinct) {
        // The one OFFSET allowed: a save's trim skips the board's first max_entries (at most 1,000) in index order.
        const trim = /^delete from "scores" .* limit (\?|\$\d+) offset (\?|\$\d+)\)/.test(s.sql);
        if (trim && s.parameters.slice(-2).some((n) => Number(n) > 1000))
          problems.push(`${s.sql} (trim past 1,000 rows)`);
        if (/\bover\s*\(|\bcount\s*\(/i.test(s.sql) || (/\boffset\b/i.test(s.sql) && !trim))
          problems.push(`${s.sql} (window function, OFFSET or COUNT)`);
        const plan = await explain(s);
        // A trim walks the period's index in order, and stops after limit + offset rows (checked above).
        const scans = fullScans(dialect, plan).filter((scan) => !trim || /^(Seq Scan|SCAN )/.test(scan));
        for (const scan of scans) problems.push(`${s.sql} → ${scan}`);
      }
      expect(problems).toEqual([]);
    });
  });
}
