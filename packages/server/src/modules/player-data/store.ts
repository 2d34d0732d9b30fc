import {
  sql,
  type ExpressionBuilder,
  type InsertQueryBuilder,
  type InsertResult,
  type Kysely,
  type Transaction,
} from 'kysely';
import { lockNames, writesRowsTogether } from '../../db/dialect-sql.js';
import { isHeldRowMissing } from '../../db/errors.js';
import { prepared, readsDirectly } from '../../db/prepared.js';
import type { DB } from '../../db/schema.js';
import { done, failed, groupCommit } from '../../lib/group-commit.js';
import type { PlayerDataTable } from './player-data.table.js';

export interface DocKey {
  gameId: string;
  player: string;
  /** '' for the player's own document. */
  character: string;
}

const docQuery = prepared((db, gameId, player, character) =>
  db
    .selectFrom('player_data')
    .select(['data', 'version', 'updated_at'])
    .where('game_id', '=', gameId!)
    .where('player_name', '=', player!)
    .where('character_name', '=', character!),
);

async function findDoc(db: Kysely<DB>, key: DocKey) {
  const [row] = await docQuery(db, key.gameId, key.player, key.character);
  return row;
}

/** One text per document, for maps and sets of documents. */
export const docId = (k: DocKey) => JSON.stringify([k.gameId, k.player, k.character]);

/** The document a stored row is. */
export function toKey(row: Pick<PlayerDataTable, 'game_id' | 'player_name' | 'character_name'>): DocKey {
  return { gameId: row.game_id, player: row.player_name, character: row.character_name };
}

type FoundDoc = Pick<PlayerDataTable, 'data' | 'version' | 'updated_at'>;

/**
 * Reads one document at a time where a read is a local call (a SQLite file), and in groups where
 * it is a round trip (PostgreSQL): reads that arrive while one is under way go together in the
 * next, one statement for all of them. A read always starts after it was asked for, so it sees
 * every write that had answered by then.
 */
export function docReader(db: Kysely<DB>): (key: DocKey) => Promise<FoundDoc | undefined> {
  // Reads grouped across callers would cross their transactions.
  if (db.isTransaction) throw new Error('docReader reads outside any transaction');
  if (readsDirectly(db)) return (key) => findDoc(db, key);
  const reads = groupCommit<DocKey, FoundDoc | undefined>(async (keys) => {
    let rows: PlayerDataTable[];
    try {
      rows = await findDocs(db, keys);
    } catch (err) {
      // What fails a read (a lost connection, a timeout) fails them all: running each again alone would only add load.
      return keys.map(() => failed(err));
    }
    const byId = new Map(rows.map((r) => [docId(toKey(r)), r]));
    return keys.map((k) => done(byId.get(docId(k))));
  });
  return (key) => reads.enqueue(key);
}

/**
 * Holds one player's documents until the transaction ends, so read-change-write (merges, version
 * checks, the character limit) cannot interleave.
 */
export async function lockPlayer(trx: Transaction<DB>, gameId: string, player: string) {
  await lockPlayers(trx, [{ gameId, player }]);
}

/** Holds several players' documents, in one statement, in the order given (sorted by the caller). */
export async function lockPlayers(trx: Transaction<DB>, players: Array<{ gameId: string; player: string }>) {
  await lockNames(
    trx,
    players.map((p) => playerLock(p.gameId, p.player)),
  );
}

/** The name a player's documents are held by (lockNames). */
const playerLock = (gameId: string, player: string) => `player-data:${gameId}:${player}`;

/** Whether a row is the document of this key. */
const isDoc = (key: DocKey) => (eb: ExpressionBuilder<DB, 'player_data'>) =>
  eb.and([
    eb('game_id', '=', key.gameId),
    eb('player_name', '=', key.player),
    eb('character_name', '=', key.character),
  ]);

/** The stored documents of these keys, in one read (compiled once per number of keys, up to a group's). */
export function findDocs(db: Kysely<DB>, keys: DocKey[]): Promise<PlayerDataTable[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return docsQuery(db, ...keys.flatMap((k) => [k.gameId, k.player, k.character]));
}

const docsQuery = prepared((db, ...parts) =>
  db
    .selectFrom('player_data')
    .select(['game_id', 'player_name', 'character_name', 'data', 'version', 'updated_at'])
    .where((eb) =>
      eb.or(
        Array.from({ length: parts.length / 3 }, (_, i) =>
          isDoc({ gameId: parts[3 * i]!, player: parts[3 * i + 1]!, character: parts[3 * i + 2]! })(eb),
        ),
      ),
    ),
);

/** A document's upsert: a write replaces the stored text, version and time. */
const docUpsert: Parameters<InsertQueryBuilder<DB, 'player_data', InsertResult>['onConflict']>[0] = (oc) =>
  oc.columns(['game_id', 'player_name', 'character_name']).doUpdateSet((eb) => ({
    data: eb.ref('excluded.data'),
    version: eb.ref('excluded.version'),
    updated_at: eb.ref('excluded.updated_at'),
  }));

/** One document's upsert, compiled once (SQLite writes a group's documents one by one). */
const saveDoc = prepared((db, gameId, player, character, data, version, updatedAt) =>
  db
    .insertInto('player_data')
    .values({
      game_id: gameId!,
      player_name: player!,
      character_name: character!,
      data: data!,
      version: version as never,
      updated_at: updatedAt as never,
    })
    .onConflict(docUpsert),
);

/**
 * Writes documents, each replacing the stored one of its key (one row per key): in one statement
 * where the database takes rows together faster (writesRowsTogether), else one by one.
 */
export async function saveDocs(db: Kysely<DB>, rows: PlayerDataTable[]): Promise<void> {
  if (rows.length === 0) return;
  if (!writesRowsTogether(db)) {
    for (const r of rows)
      await saveDoc(db, r.game_id, r.player_name, r.character_name, r.data, r.version, r.updated_at);
    return;
  }
  await db.insertInto('player_data').values(rows).onConflict(docUpsert).execute();
}

/**
 * Replaces players' own documents in one statement that commits alone, holding what a group's
 * transaction holds, in the same order: the games' rows (shared, as holdGame), then the players
 * (lockNames). Each key once; `games` and `players` in lockOrder. A document's next version is the
 * stored one's plus one, read under its row lock, so a write that committed meanwhile counts.
 * Answers each player's new version, or undefined when a game is gone and nothing was written.
 */
export async function replaceOwnDocsHeld(
  db: Kysely<DB>,
  held: { games: string[]; players: Array<{ gameId: string; player: string }> },
  docs: Array<{ gameId: string; player: string; data: string }>,
  now: number,
): Promise<Array<{ game_id: string; player_name: string; version: number }> | undefined> {
  const locks = held.players.map((p) => playerLock(p.gameId, p.player));
  const column = (pick: (d: (typeof docs)[number]) => string) => docs.map(pick);
  try {
    return await ownDocsReplace(
      db,
      held.games,
      locks,
      column((d) => d.gameId),
      column((d) => d.player),
      column((d) => d.data),
      now,
    );
  } catch (err) {
    // The game's row was gone when its hold read it: its id in the row is null, which the column refuses.
    if (isHeldRowMissing(err, 'game_id')) return undefined;
    throw err;
  }
}

// The games are held before any player (the players' scan waits on the games' count, one
// uncorrelated read), and every player before any row is written (each row waits on the players'
// count). Each lock is a column of its own materialised row, as lockNames takes them, so no planner
// can skip the call. The games' lock is the one games' holdGame takes.
const ownDocsReplace = prepared((db, games, locks, gameIds, players, data, now) => ({
  compile: () =>
    sql<{ game_id: string; player_name: string; version: number }>`
      with held_game as materialized (
        select g.id from unnest(${games}::text[]) with ordinality as wanted(id, at)
        join games g on g.id = wanted.id
        order by wanted.at
        for share of g
      ), held_players as materialized (
        select pg_advisory_xact_lock(hashtextextended(name, 0))
        from unnest(${locks}::text[]) with ordinality as named(name, at)
        where (select count(*) from held_game) >= 0
        order by at
      )
      insert into player_data (game_id, player_name, character_name, data, version, updated_at)
      select (select id from held_game where id = doc.game_id), doc.player, '', doc.data, 1, ${now}::bigint
      from unnest(${gameIds}::text[], ${players}::text[], ${data}::text[]) as doc(game_id, player, data)
      where (select count(*) from held_players) >= 0
      on conflict (game_id, player_name, character_name) do update
        set data = excluded.data, version = player_data.version + 1, updated_at = excluded.updated_at
      returning game_id, player_name, version`.compile(db),
}));

export async function deleteDocs(db: Kysely<DB>, keys: DocKey[]): Promise<void> {
  if (keys.length === 0) return;
  await db
    .deleteFrom('player_data')
    .where((eb) => eb.or(keys.map((k) => isDoc(k)(eb))))
    .execute();
}

/** Every document of a player: their own and their characters'. Answers how many were deleted. */
export async function deletePlayer(db: Kysely<DB>, gameId: string, player: string): Promise<number> {
  const res = await db
    .deleteFrom('player_data')
    .where('game_id', '=', gameId)
    .where('player_name', '=', player)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function listCharacters(db: Kysely<DB>, gameId: string, player: string): Promise<string[]> {
  const rows = await db
    .selectFrom('player_data')
    .select('character_name')
    .where('game_id', '=', gameId)
    .where('player_name', '=', player)
    .where('character_name', '!=', '')
    .orderBy('character_name')
    .execute();
  return rows.map((r) => r.character_name);
}

/** Every document of a game (the game is going). */
export async function deleteGame(db: Kysely<DB>, gameId: string): Promise<void> {
  await db.deleteFrom('player_data').where('game_id', '=', gameId).execute();
}

/** The players' own documents (not their characters') for a page of names. */
export async function ownDocs(db: Kysely<DB>, gameId: string, names: string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const rows = await db
    .selectFrom('player_data')
    .select(['player_name', 'data'])
    .where('game_id', '=', gameId)
    .where('character_name', '=', '')
    .where('player_name', 'in', names)
    .execute();
  return new Map(rows.map((r) => [r.player_name, r.data]));
}

/** One page of a game's documents in (player, character) order, after the given pair: the export's keyset. */
export function exportPage(db: Kysely<DB>, gameId: string, limit: number, after?: [string, string]) {
  let q = db.selectFrom('player_data').select(['player_name', 'character_name', 'data']).where('game_id', '=', gameId);
  if (after) {
    q = q.where((eb) =>
      eb.or([
        eb('player_name', '>', after[0]),
        eb.and([eb('player_name', '=', after[0]), eb('character_name', '>', after[1])]),
      ]),
    );
  }
  return q.orderBy('player_name').orderBy('character_name').limit(limit).execute();
}

/** Writes players' own documents at once (an import), each replacing the stored one at its next version. */
export async function importDocs(
  trx: Transaction<DB>,
  gameId: string,
  docs: Array<{ player: string; data: string }>,
  now: number,
): Promise<void> {
  if (docs.length === 0) return;
  await trx
    .insertInto('player_data')
    .values(
      docs.map((d) => ({
        game_id: gameId,
        player_name: d.player,
        character_name: '',
        data: d.data,
        version: 1,
        updated_at: now,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['game_id', 'player_name', 'character_name']).doUpdateSet((eb) => ({
        data: eb.ref('excluded.data'),
        version: eb(eb.ref('player_data.version'), '+', 1),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}
