import { describe, expect, it } from 'vitest';
import { playerGame } from '../../../test/support/players.js';
import { DIALECTS, REDIS_SKIP } from '../../../test/support/services.js';

const path = (player: string, character?: string) =>
  `/v1/player-data/${encodeURIComponent(player)}${character === undefined ? '' : `/characters/${encodeURIComponent(character)}`}`;

/** The calls of these suites, on one running app (its game API and the stored rows). */
function documents(game: ReturnType<typeof playerGame>) {
  const { ctx, v1 } = game;
  const put = (player: string, body: Record<string, unknown>, character?: string) =>
    v1('PUT', path(player, character), { body });
  const get = async (player: string, character?: string) => {
    const res = await v1('GET', path(player, character));
    expect(res.statusCode).toBe(200);
    return res.json() as { player_data: Record<string, unknown>; version: number };
  };
  /** Changes the stored row without the server knowing, as no write through it ever does. */
  const behindItsBack = (player: string, data: Record<string, unknown>) =>
    ctx.t.database.db
      .updateTable('player_data')
      .set({ data: JSON.stringify(data) })
      .where('game_id', '=', ctx.game.game_id)
      .where('player_name', '=', player)
      .where('character_name', '=', '')
      .execute();
  return { put, get, behindItsBack };
}

/**
 * 25 writes of one document, each with two readers reading it one call after another while the
 * write is under way and a few calls past its answer, so some reads start as it commits: a read
 * asked once a write has answered never answers an older version.
 */
async function readsNeverOlder(game: ReturnType<typeof playerGame>) {
  const { put, get } = documents(game);
  const name = game.fresh().name;
  for (let round = 1; round <= 25; round++) {
    let answered = false;
    let readAfter = 0;
    // Each read lets the event loop turn (a read from memory never waits for I/O), and one reader
    // waits a random moment more, so the two fall out of step; at most 500 reads each.
    const reader = async (jitter: boolean) => {
      for (let n = 0; n < 500 && readAfter < 6; n++) {
        const askedAfter = answered;
        const doc = await get(name);
        if (askedAfter) {
          readAfter++;
          expect(doc.version).toBeGreaterThanOrEqual(round);
        }
        await new Promise((resolve) => (jitter ? setTimeout(resolve, Math.random() * 2) : setImmediate(resolve)));
      }
    };
    const readers = [reader(false), reader(true)];
    const written = await put(name, { player_data: { round } });
    answered = true;
    expect(written.statusCode).toBe(200);
    const version = (written.json() as { version: number }).version;
    expect(version).toBe(round);
    await Promise.all(readers);
    for (const after of await Promise.all(Array.from({ length: 3 }, () => get(name)))) {
      expect(after).toMatchObject({ player_data: { round }, version });
    }
  }
}

// On a SQLite file, reads outside a transaction have a connection of their own and can race a commit, as on PostgreSQL.
const SETUPS = [
  ...DIALECTS.map((d) => ({ ...d, name: d.dialect, sqliteFile: false })),
  { dialect: 'sqlite' as const, skip: false as const, name: 'sqlite file', sqliteFile: true },
];

for (const { dialect, skip, name: setup, sqliteFile } of SETUPS) {
  describe.skipIf(skip)(`${setup}: documents kept in memory by a server alone on its database`, () => {
    // The race below reads as fast as it can: the game API's limits are out of its way.
    const game = playerGame(dialect, {
      sqliteFile,
      env: { GAME_API_REQUESTS_PER_KEY_PER_MINUTE: '1000000', GAME_API_REQUESTS_PER_IP_PER_MINUTE: '1000000' },
    });
    const { ctx, console, v1, fresh, loggedIn } = game;
    const { put, get, behindItsBack } = documents(game);

    it('answers a second read from memory, until a write through the server drops it', async () => {
      const name = fresh().name;
      await put(name, { player_data: { v: 1 } });
      expect((await get(name)).player_data).toEqual({ v: 1 });
      await behindItsBack(name, { v: 'changed behind its back' });
      expect((await get(name)).player_data).toEqual({ v: 1 });
      await put(name, { player_data: { v: 2 } });
      expect(await get(name)).toMatchObject({ player_data: { v: 2 }, version: 2 });
    });

    it('reads what each kind of write left as soon as it has answered, for a player and a character', async () => {
      for (const character of [undefined, 'Hero']) {
        const name = fresh().name;
        await put(name, { player_data: { a: 1 } }, character);
        expect(await get(name, character)).toMatchObject({ player_data: { a: 1 }, version: 1 });
        await put(name, { player_data: { b: 2 }, overwrite: false }, character);
        expect(await get(name, character)).toMatchObject({ player_data: { a: 1, b: 2 }, version: 2 });
        await v1('DELETE', path(name, character), { body: { keys: ['a'] } });
        expect(await get(name, character)).toMatchObject({ player_data: { b: 2 }, version: 3 });
        await v1('DELETE', path(name, character));
        expect(await get(name, character)).toMatchObject({ player_data: {}, version: 0 });
        await put(name, { player_data: { c: 3 } }, character);
        expect(await get(name, character)).toMatchObject({ player_data: { c: 3 }, version: 1 });
      }
    });

    it("reads an import's documents, and a deleted player's as gone, with or without an account", async () => {
      const imported = fresh().name;
      await put(imported, { player_data: { before: true } });
      await get(imported);
      const res = await console('POST', '/import', { player_data: { [imported]: { after: true } } });
      expect(res.statusCode).toBe(200);
      expect(await get(imported)).toMatchObject({ player_data: { after: true }, version: 2 });

      const account = await loggedIn('kept');
      const dataOnly = fresh('kept-data-only').name;
      for (const name of [account.name, dataOnly]) {
        await put(name, { player_data: { own: 1 } });
        await put(name, { player_data: { hp: 3 } }, 'Hero');
        expect((await get(name)).version).toBe(1);
        expect((await get(name, 'Hero')).version).toBe(1);
        expect((await console('DELETE', `/players/${encodeURIComponent(name)}`)).statusCode).toBe(200);
        expect(await get(name)).toMatchObject({ player_data: {}, version: 0 });
        expect(await get(name, 'Hero')).toMatchObject({ player_data: {}, version: 0 });
      }
    });

    it('never answers a document older than a write that has answered, with reads going on as it commits', () =>
      readsNeverOlder(game));

    it("answers none of a deleted game's documents, kept or not", async () => {
      const other = await game.newGame('Kept and gone');
      const call = (method: 'GET' | 'PUT', body?: unknown) =>
        v1(method, path('leaving'), { apiKey: other.api_key, gameId: other.game_id, ...(body ? { body } : {}) });
      await call('PUT', { player_data: { x: 1 } });
      expect((await call('GET')).json().version).toBe(1);
      const kept = await ctx.t.database.db.selectFrom('player_data').select('game_id').execute();
      expect(kept.some((r) => r.game_id === other.game_id)).toBe(true);
      expect((await console('DELETE', '', undefined, other.game_id)).statusCode).toBe(200);
      const gone = await call('GET');
      expect([gone.statusCode, gone.json().error.code]).toEqual([403, 'InvalidApiKey']);
    });
  });
}

describe.skipIf(DIALECTS[1]!.skip || REDIS_SKIP)('postgres with Redis: documents are not kept', () => {
  const game = playerGame('postgres', {
    redis: true,
    env: { GAME_API_REQUESTS_PER_KEY_PER_MINUTE: '1000000', GAME_API_REQUESTS_PER_IP_PER_MINUTE: '1000000' },
  });
  const { fresh } = game;
  const { put, get, behindItsBack } = documents(game);

  it('reads the stored row every time: another process may have written it a moment ago', async () => {
    const name = fresh().name;
    await put(name, { player_data: { v: 1 } });
    expect((await get(name)).player_data).toEqual({ v: 1 });
    await behindItsBack(name, { v: 'written by another process' });
    expect((await get(name)).player_data).toEqual({ v: 'written by another process' });
  });

  // Every read here is a statement, and reads asked while one runs go together in the next (store.ts docReader).
  it('never answers a document older than a write that has answered, with reads going on as it commits', () =>
    readsNeverOlder(game));
});
