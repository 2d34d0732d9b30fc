import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gameCall } from '../../../test/support/app.js';
import { openTestDatabase } from '../../../test/support/database.js';
import { heldElsewhere } from '../../../test/support/held-elsewhere.js';
import { playerGame } from '../../../test/support/players.js';
import { services } from '../../../test/support/services.js';
import { statementLog } from '../../../test/support/statement-log.js';

// On PostgreSQL a group of puts that each replace a player's own document (no merge, no
// if_version, no character) is one statement that holds the games and the players itself and
// commits alone (writes.ts replaceHeld); every other group takes the transaction's way. These
// check both ways, and that the one statement waits for what a transaction holds.
describe.skipIf(!services.postgresUrl && 'TEST_DATABASE_URL is not set')('postgres: puts in one statement', () => {
  /** The games each one statement held, by its first parameter. */
  const heldGames: string[][] = [];
  const { hooks, made } = statementLog((text, parameters) => {
    if (text.includes('held_players')) heldGames.push(parameters[0] as string[]);
  });
  // Opened before playerGame's app starts (hooks run in the order they are declared), which then uses it.
  const options: { database?: Awaited<ReturnType<typeof openTestDatabase>> } = {};
  beforeAll(async () => {
    options.database = await openTestDatabase('postgres', hooks);
  });
  afterAll(async () => {
    await options.database?.close();
  });
  const { ctx, v1, fresh, newGame } = playerGame('postgres', options);
  const put = (player: string, body: Record<string, unknown>, path = '') =>
    v1('PUT', `/v1/player-data/${encodeURIComponent(player)}${path}`, { body });
  const stored = async (player: string, gameId = ctx.game.game_id) =>
    ctx.t.database.db
      .selectFrom('player_data')
      .select(['character_name', 'data', 'version'])
      .where('game_id', '=', gameId)
      .where('player_name', '=', player)
      .execute();
  const transactions = (sent: string[]) => sent.filter((s) => s === 'begin').length;
  const held = (sent: string[]) => sent.filter((s) => s.includes('held_players'));

  it("replaces a player's own document with one statement and no transaction, at the next version", async () => {
    const { name } = fresh();
    const answers: Array<Awaited<ReturnType<typeof put>>> = [];
    const read = () => v1('GET', `/v1/player-data/${encodeURIComponent(name)}`);
    const sent = await made(async () => {
      answers.push(await put(name, { player_data: { level: 1 } }));
      // Read, so the document is kept in memory: the next put must drop it.
      expect((await read()).json()).toMatchObject({ player_data: { level: 1 }, version: 1 });
      answers.push(await put(name, { player_data: { level: 2 }, overwrite: true }));
    });
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.map((a) => a.json())).toMatchObject([
      { player_name: name, player_data: { level: 1 }, version: 1 },
      { player_name: name, player_data: { level: 2 }, version: 2 },
    ]);
    expect(transactions(sent)).toBe(0);
    expect(held(sent)).toEqual([expect.stringMatching(/^with held_game as materialized/), expect.anything()]);
    expect(await stored(name)).toEqual([{ character_name: '', data: '{"level":2}', version: 2 }]);
    expect((await read()).json()).toEqual(answers[1]!.json());
  });

  it("puts the documents of several players sent at once in one statement per game, each game's apart", async () => {
    const other = await newGame('Second Run');
    const names = [fresh().name, fresh().name, fresh().name];
    const inOther = (method: 'GET' | 'PUT', body?: unknown) =>
      gameCall(ctx.t.app, method, `/v1/player-data/${names[0]}`, {
        apiKey: other.api_key,
        gameId: other.game_id,
        ...(body ? { body } : {}),
      });
    // Once, so the other game is known and its put arrives with the others.
    expect((await inOther('GET')).statusCode).toBe(200);
    heldGames.length = 0;
    const sent = await made(async () => {
      const answers = await Promise.all([
        ...names.map((name, i) => put(name, { player_data: { i } })),
        inOther('PUT', { player_data: { other: true } }),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    });
    expect(transactions(sent)).toBe(0);
    // Each game's first put goes alone while the others gather behind it; they then go together.
    expect(held(sent).length).toBeLessThanOrEqual(3);
    expect(heldGames).toContainEqual([other.game_id]);
    expect(heldGames.every((games) => games.length === 1)).toBe(true);
    for (const [i, name] of names.entries())
      expect(await stored(name)).toEqual([{ character_name: '', data: JSON.stringify({ i }), version: 1 }]);
    expect(await stored(names[0]!, other.game_id)).toEqual([
      { character_name: '', data: '{"other":true}', version: 1 },
    ]);
  });

  it('reads the documents asked for at once in one statement, each answer its own', async () => {
    const names = [fresh().name, fresh().name, fresh().name];
    for (const [i, name] of names.entries()) expect((await put(name, { player_data: { i } })).statusCode).toBe(200);
    expect((await put(names[0]!, { player_data: { hero: true } }, '/characters/knight')).statusCode).toBe(200);
    // The same name in another game, with a document of its own.
    const other = await newGame('Same Names');
    const inOther = (method: 'GET' | 'PUT', body?: unknown) =>
      gameCall(ctx.t.app, method, `/v1/player-data/${encodeURIComponent(names[0]!)}`, {
        apiKey: other.api_key,
        gameId: other.game_id,
        ...(body ? { body } : {}),
      });
    expect((await inOther('PUT', { player_data: { elsewhere: true } })).statusCode).toBe(200);
    const read = (player: string, path = '') => v1('GET', `/v1/player-data/${encodeURIComponent(player)}${path}`);
    let answers: Array<Awaited<ReturnType<typeof read>>> = [];
    const sent = await made(async () => {
      answers = await Promise.all([
        ...names.map((name) => read(name)),
        read(names[0]!, '/characters/knight'),
        read(fresh().name),
        read(names[1]!),
        inOther('GET'),
      ]);
    });
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(answers.map((a) => [a.json().player_data, a.json().version])).toEqual([
      [{ i: 0 }, 1],
      [{ i: 1 }, 1],
      [{ i: 2 }, 1],
      [{ hero: true }, 1],
      [{}, 0],
      [{ i: 1 }, 1],
      [{ elsewhere: true }, 1],
    ]);
    // The first read goes alone while the others gather behind it; they then go together.
    const reads = sent.filter((s) => s.startsWith('select') && s.includes('from "player_data"'));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.length).toBeLessThanOrEqual(2);
  });

  it('takes the transaction’s way for a merge, an if_version, a character, and one document twice', async () => {
    const { name } = fresh();
    expect((await put(name, { player_data: { a: 1 } })).statusCode).toBe(200);
    for (const [body, path] of [
      [{ player_data: { b: 2 }, overwrite: false }, ''],
      [{ player_data: { c: 3 }, if_version: 2 }, ''],
      [{ player_data: { hero: true } }, '/characters/knight'],
    ] as const) {
      const sent = await made(async () => expect((await put(name, body, path)).statusCode).toBe(200));
      expect(held(sent)).toEqual([]);
      expect(transactions(sent)).toBe(1);
    }
    const twice = await made(async () => {
      const answers = await Promise.all([4, 5, 6].map((d) => put(name, { player_data: { d } })));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
      expect(answers.map((a) => a.json().version).sort()).toEqual([4, 5, 6]);
    });
    // Sent at once, they meet in one group (or the first goes alone and the other two gather
    // behind it): the group with one document more than once is a transaction.
    expect(transactions(twice)).toBe(1);
    expect(await stored(name)).toEqual([
      { character_name: '', data: expect.stringMatching(/^\{"d":[456]\}$/), version: 6 },
      { character_name: 'knight', data: '{"hero":true}', version: 1 },
    ]);
  });

  it("waits for a transaction holding the player, as a merge does, so neither loses the other's write", async () => {
    const { name } = fresh();
    expect((await put(name, { player_data: { a: 1 } })).statusCode).toBe(200);
    // A merge's transaction: the player's lock, a read, and a write at the version it read plus one.
    const lock = `player-data:${ctx.game.game_id}:${name}`;
    let answer: Awaited<ReturnType<typeof put>> | undefined;
    const sent = await made(async () => {
      answer = await heldElsewhere(
        ctx.t.database.db,
        {
          hold: (other) => other.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [lock]),
          then: (other) =>
            other.query(`update player_data set data = '{"a":1,"merged":true}', version = 2 where player_name = $1`, [
              name,
            ]),
        },
        () => put(name, { player_data: { put: true } }),
      );
    });
    // The one statement is what waited, and wrote after the merge.
    expect(held(sent)).toHaveLength(1);
    expect(transactions(sent)).toBe(0);
    expect(answer!.statusCode).toBe(200);
    expect(answer!.json()).toMatchObject({ player_data: { put: true }, version: 3 });
    expect(await stored(name)).toEqual([{ character_name: '', data: '{"put":true}', version: 3 }]);
  });

  it("lets other games' writes through while one game's row is held by its delete", async () => {
    const game = await newGame('Held Up');
    const { name } = fresh();
    const other = fresh().name;
    const answer = await heldElsewhere(
      ctx.t.database.db,
      {
        hold: (held) => held.query('select id from games where id = $1 for update', [game.game_id]),
        // While this game's write waits on its row, another game's writes answer.
        whileBlocked: async () => {
          for (const body of [{ player_data: { mine: 1 } }, { player_data: { more: 2 }, overwrite: false }]) {
            expect((await put(other, body)).statusCode).toBe(200);
          }
        },
      },
      () =>
        gameCall(ctx.t.app, 'PUT', `/v1/player-data/${encodeURIComponent(name)}`, {
          apiKey: game.api_key,
          gameId: game.game_id,
          body: { player_data: { waited: true } },
        }),
    );
    expect(answer.statusCode).toBe(200);
    expect(await stored(other)).toEqual([{ character_name: '', data: '{"mine":1,"more":2}', version: 2 }]);
    expect(await stored(name, game.game_id)).toEqual([{ character_name: '', data: '{"waited":true}', version: 1 }]);
  });

  it('waits for a delete of the game before holding any player, then answers 404 the transaction’s way', async () => {
    const game = await newGame('Going Away');
    const { name } = fresh();
    let answer: Awaited<ReturnType<typeof put>> | undefined;
    const sent = await made(async () => {
      answer = await heldElsewhere(
        ctx.t.database.db,
        {
          hold: (other) => other.query('select id from games where id = $1 for update', [game.game_id]),
          // The games come first: while the game is held, the statement holds no player yet.
          whileBlocked: async (blocked) =>
            expect(
              (
                await sql<{ n: number }>`select count(*)::int as n from pg_locks
                  where pid = ${blocked} and locktype = 'advisory'`.execute(ctx.t.database.db)
              ).rows[0]!.n,
            ).toBe(0),
          then: (other) => other.query('delete from games where id = $1', [game.game_id]),
        },
        () =>
          gameCall(ctx.t.app, 'PUT', `/v1/player-data/${encodeURIComponent(name)}`, {
            apiKey: game.api_key,
            gameId: game.game_id,
            body: { player_data: { late: true } },
          }),
      );
    });
    // The one statement found the game gone and wrote nothing; the transaction's way answered.
    expect(held(sent)).toEqual([expect.stringMatching(/^failed: \s*with held_game/)]);
    expect(transactions(sent)).toBe(1);
    expect(answer!.statusCode).toBe(404);
    expect(answer!.json().error).toMatchObject({ code: 'NotFound', message: 'This game no longer exists.' });
    expect(await stored(name, game.game_id)).toEqual([]);
  });
});
