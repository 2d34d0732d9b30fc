import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { boardGame } from '../../../test/support/boards.js';
import { openTestDatabase } from '../../../test/support/database.js';
import { services } from '../../../test/support/services.js';

// On PostgreSQL a group of submits to a board without a size limit is one statement that holds the
// board's shared lock itself and commits alone (writes.ts saveHeld); a board changed since it was
// read sends the group the transaction's way. These check both ways, and the race between them.
describe.skipIf(!services.postgresUrl && 'TEST_DATABASE_URL is not set')('postgres: submits in one statement', () => {
  const statements: string[] = [];
  const {
    ctx,
    submit,
    createBoard: create,
    v1,
  } = boardGame('postgres', async () => ({
    database: await openTestDatabase('postgres', {
      onQuery: (sql) => statements.push(sql),
      onFailedQuery: (sql) => statements.push(`failed: ${sql}`),
    }),
  }));
  const createBoard = async (name: string, settings: Record<string, unknown>) => {
    expect((await create({ name, ...settings })).statusCode).toBe(201);
    // Read once, so the board is kept and the submits below start from what was read.
    await v1('GET', `/v1/leaderboards/${name}/scores?max=1`);
  };
  const boardId = async (name: string) =>
    (
      await ctx.t.database.db
        .selectFrom('leaderboards')
        .select('id')
        .where('game_id', '=', ctx.game.game_id)
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
    ).id;
  const stored = async (name: string) =>
    ctx.t.database.db
      .selectFrom('scores')
      .select(['player_name', 'score'])
      .where('leaderboard_id', '=', await boardId(name))
      .orderBy('score', 'desc')
      .execute();
  /** The statements a call made. */
  const made = async (run: () => Promise<unknown>) => {
    statements.length = 0;
    await run();
    return statements.map((s) => s.trim().toLowerCase());
  };

  it('saves a submit to an unlimited board with one statement and no transaction of its own', async () => {
    await createBoard('open', { max_entries: null });
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const sent = await made(async () => (answer = await submit('open', 'a player', 40)));
    expect(answer!.statusCode).toBe(200);
    expect(answer!.json()).toMatchObject({ position: 1, kept: true });
    // Kysely does not log BEGIN and COMMIT; a transaction's way would show the board's lock as a read of its own.
    const writes = sent.filter((s) => /^(with|insert|update|delete|select)/.test(s) && !s.includes('games'));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^with "held_board" as materialized .* for key share\) insert into "scores"/);
    expect(await stored('open')).toEqual([{ player_name: 'a player', score: 40 }]);
  });

  it('answers a highest board the same way: a better score replaces, a worse one keeps the standing entry', async () => {
    await createBoard('best', { max_entries: null, insert_option: 'highest' });
    expect((await submit('best', 'a player', 10)).json()).toMatchObject({ position: 1, kept: true });
    const worse = await made(async () =>
      expect((await submit('best', 'a player', 5)).json()).toMatchObject({ position: 1, kept: false }),
    );
    expect(worse.filter((s) => s.includes('leaderboards'))).toEqual([expect.stringContaining('held_board')]);
    expect((await submit('best', 'a player', 20)).json()).toMatchObject({ position: 1, kept: true });
    expect(await stored('best')).toEqual([{ player_name: 'a player', score: 20 }]);
  });

  it('takes the transaction’s way when the board was limited since it was read, and keeps to the limit', async () => {
    await createBoard('changed', { max_entries: null });
    expect((await submit('changed', 'zero', 0)).statusCode).toBe(200);
    // Behind the server's back, as another process would: the board it keeps is now out of date.
    await ctx.t.database.db
      .updateTable('leaderboards')
      .set((eb) => ({ max_entries: 1, generation: eb(eb.ref('generation'), '+', 1) }))
      .where('id', '=', await boardId('changed'))
      .execute();
    const sent = await made(async () => expect((await submit('changed', 'first', 1)).statusCode).toBe(200));
    // The one statement found the board changed and wrote nothing; the transaction's way locked
    // the board for a limited save (see BoardLock) and trimmed to the new limit.
    expect(sent[0]).toMatch(/^failed: with "held_board"/);
    expect(sent.some((s) => s.startsWith('select') && s.endsWith('for no key update'))).toBe(true);
    expect(await stored('changed')).toEqual([{ player_name: 'first', score: 1 }]);
    expect((await submit('changed', 'second', 2)).statusCode).toBe(200);
    expect(await stored('changed')).toEqual([{ player_name: 'second', score: 2 }]);
  });

  it('waits for a settings change that holds the board, then follows it: submits racing a new limit never overfill it', async () => {
    await createBoard('racing', { max_entries: null });
    const id = await boardId('racing');
    // Another connection changes the board's settings as the dashboard does: the row locked for update.
    const other = new pg.Client({ connectionString: services.postgresUrl });
    await other.connect();
    try {
      await other.query(`set search_path to ${await schemaOf()}`);
      await other.query('begin');
      await other.query('select id from leaderboards where id = $1 for update', [id]);
      await other.query('update leaderboards set max_entries = 2, generation = generation + 1 where id = $1', [id]);
      const submits = Promise.all([1, 2, 3, 4, 5].map((n) => submit('racing', `player ${n}`, n)));
      // The submits are waiting on the board's row; none may have written.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await stored('racing')).toEqual([]);
      await other.query('commit');
      const answers = await submits;
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    } finally {
      await other.end();
    }
    expect(await stored('racing')).toEqual([
      { player_name: 'player 5', score: 5 },
      { player_name: 'player 4', score: 4 },
    ]);
  });

  const schemaOf = async () =>
    (await sql<{ schema: string }>`select current_schema() as schema`.execute(ctx.t.database.db)).rows[0]!.schema;
});
