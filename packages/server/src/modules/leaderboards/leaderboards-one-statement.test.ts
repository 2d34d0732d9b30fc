import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { boardGame } from '../../../test/support/boards.js';
import { heldElsewhere } from '../../../test/support/held-elsewhere.js';
import { openTestDatabase } from '../../../test/support/database.js';
import { services } from '../../../test/support/services.js';
import { statementLog } from '../../../test/support/statement-log.js';
import { swCall } from '../../../test/support/silentwolf.js';

// On PostgreSQL a group of submits to a board without a size limit is one statement that holds the
// board's shared lock itself and commits alone (writes.ts saveHeld); a board changed since it was
// read sends the group the transaction's way. These check both ways, and the race between them.
describe.skipIf(!services.postgresUrl && 'TEST_DATABASE_URL is not set')('postgres: submits in one statement', () => {
  const { hooks, made } = statementLog();
  const {
    ctx,
    submit,
    createBoard: create,
    v1,
  } = boardGame('postgres', async () => ({
    database: await openTestDatabase('postgres', hooks),
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

  it('saves a submit to an unlimited board with one statement and no transaction of its own', async () => {
    await createBoard('open', { max_entries: null });
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const sent = await made(async () => (answer = await submit('open', 'a player', 40)));
    expect(answer!.statusCode).toBe(200);
    expect(answer!.json()).toMatchObject({ position: 1, kept: true });
    // The transaction's way would show BEGIN, the board's lock as a read of its own, the insert and COMMIT.
    expect(sent.filter((s) => /^(begin|commit|insert)|for key share$/.test(s))).toEqual([]);
    expect(sent.filter((s) => s.includes('"scores"') && !s.startsWith('select'))).toEqual([
      expect.stringMatching(/^with "held_board" as materialized .* for key share\) insert into "scores"/),
    ]);
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

  it("keeps a client's fresh score id in the one statement, and gives a taken one a fresh id the transaction's way", async () => {
    await createBoard('named', { max_entries: null });
    const save = (score_id: string, score: number) =>
      swCall(ctx.t, ctx.game, 'POST', '/save_score', {
        body: { score_id, ldboard_name: 'named', player_name: 'a player', score },
      });
    const id = randomUUID();
    let first: Awaited<ReturnType<typeof save>> | undefined;
    const sent = await made(async () => (first = await save(id, 1)));
    expect(first!.json()).toEqual({ success: true, score_id: id });
    expect(sent.filter((s) => s.includes('leaderboards'))).toEqual([expect.stringContaining('held_board')]);
    // The same id again: the statement meets the entry that has it and writes nothing; the
    // transaction's way then saves the score under a fresh id.
    let again: Awaited<ReturnType<typeof save>> | undefined;
    const resent = await made(async () => (again = await save(id, 2)));
    expect(again!.statusCode).toBe(200);
    expect(again!.json().score_id).not.toBe(id);
    expect(resent.filter((s) => s.includes('held_board'))).toEqual([expect.stringMatching(/^failed: /)]);
    expect(await stored('named')).toEqual([
      { player_name: 'a player', score: 2 },
      { player_name: 'a player', score: 1 },
    ]);
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
    expect(sent.filter((s) => s.includes('held_board'))).toEqual([expect.stringMatching(/^failed: /)]);
    expect(sent.some((s) => s.startsWith('select') && s.endsWith('for no key update'))).toBe(true);
    expect(await stored('changed')).toEqual([{ player_name: 'first', score: 1 }]);
    expect((await submit('changed', 'second', 2)).statusCode).toBe(200);
    expect(await stored('changed')).toEqual([{ player_name: 'second', score: 2 }]);
  });

  it('saves a group of several players in its one statement, and a player twice the transaction’s way', async () => {
    await createBoard('latest', { max_entries: null, insert_option: 'latest' });
    const together = await made(async () => {
      const answers = await Promise.all([1, 2, 3].map((n) => submit('latest', `player ${n}`, n)));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    });
    const held = together.filter((s) => s.includes('held_board'));
    expect(held).toHaveLength(1);
    expect(held[0]!.match(/\(select id from held_board/g)).toHaveLength(3);
    const twice = await made(async () => {
      await Promise.all([4, 5].map((n) => submit('latest', 'player 1', n)));
    });
    expect(twice.some((s) => s.includes('held_board'))).toBe(false);
    expect(await stored('latest')).toEqual([
      { player_name: 'player 1', score: 5 },
      { player_name: 'player 3', score: 3 },
      { player_name: 'player 2', score: 2 },
    ]);
  });

  /**
   * Holds the board's row for update from another connection, as every change of a board does
   * (settings, wipe, import, delete), runs `change` there, sends `submits` and lets them reach the
   * lock before the change commits; answers what the submits answered and the statements made.
   */
  async function racing(name: string, change: string, submits: () => Promise<unknown>) {
    const id = await boardId(name);
    let answered: unknown;
    const sent = await made(async () => {
      answered = await heldElsewhere(
        ctx.t.database.db,
        {
          hold: (other) => other.query('select id from leaderboards where id = $1 for update', [id]),
          then: (other) => other.query(change, [id]),
          whileBlocked: async () => expect(await stored(name)).toEqual([]),
        },
        submits,
      );
    });
    return { answered, sent };
  }

  it('waits for a new limit that holds the board, then follows it: submits racing it never overfill the board', async () => {
    await createBoard('racing', { max_entries: null });
    // The limit alone, as a change of max_entries makes it (no new generation).
    const { answered, sent } = await racing('racing', 'update leaderboards set max_entries = 2 where id = $1', () =>
      Promise.all([1, 2, 3, 4, 5].map((n) => submit('racing', `player ${n}`, n))),
    );
    expect((answered as Array<{ statusCode: number }>).map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(sent.filter((s) => s.includes('held_board')).every((s) => s.startsWith('failed: '))).toBe(true);
    expect(await stored('racing')).toEqual([
      { player_name: 'player 5', score: 5 },
      { player_name: 'player 4', score: 4 },
    ]);
  });

  it('waits for a wipe that holds the board, then saves under the new generation, as the rank index expects', async () => {
    await createBoard('wiped', { max_entries: null });
    expect((await submit('wiped', 'before', 100)).statusCode).toBe(200);
    await ctx.t.database.db
      .deleteFrom('scores')
      .where('leaderboard_id', '=', await boardId('wiped'))
      .execute();
    // The generation alone, as a wipe moves it (its scores are gone already, above).
    const { answered, sent } = await racing(
      'wiped',
      'update leaderboards set generation = generation + 1 where id = $1',
      () => submit('wiped', 'after', 1),
    );
    expect((answered as { statusCode: number }).statusCode).toBe(200);
    expect(sent.filter((s) => s.includes('held_board'))).toEqual([expect.stringMatching(/^failed: /)]);
    expect(await stored('wiped')).toEqual([{ player_name: 'after', score: 1 }]);
  });
});
