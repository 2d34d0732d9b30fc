import { GAME_STATE_PLAYER, MAX_PLAYER_DATA_BYTES } from '@howl/contract';
import type { Kysely, Transaction } from 'kysely';
import { lockOrder, statisticsRefresher } from '../../db/dialect-sql.js';
import type { DB } from '../../db/schema.js';
import { noCaches, type Caches } from '../../lib/cache.js';
import type { Clock } from '../../lib/clock.js';
import type { GameHold } from '../games/service.js';
import { playerDataErrors } from './errors.js';
import * as store from './store.js';
import { docId, type DocKey } from './store.js';
import { createDocWrites, NONE, type Doc, type DocChange, type StoredDoc } from './writes.js';
import { nextTurn } from '../../lib/turn.js';

export type { StoredDoc } from './writes.js';

export interface PlayerDataDeps {
  db: Kysely<DB>;
  clock: Clock;
  /** A write holds its game's row: a game deleted meanwhile takes the write's data with it. */
  games: GameHold;
  /**
   * Where documents the game API reads are kept between calls. Only for a process alone on its
   * database (no Redis): with several, a player's next read could reach another process before
   * the notice of their write, and read what they had just replaced.
   */
  caches?: Caches;
  /** Hears a failure of the statistics or the vacuum that follow an import (`statisticsRefresher`). */
  onBackgroundError?: (err: unknown) => void;
}

/** Players per transaction while importing: each holds their locks until it commits. */
const IMPORT_CHUNK = 200;
/** Rows per round trip while exporting; the export holds about one page (at most 8 MB of documents) at a time. */
const EXPORT_PAGE = 200;
/** Documents kept in memory: at most this many, and this much text (two bytes a character at most). */
const KEPT_DOCS = 10_000;
const KEPT_BYTES = 32 * 1024 * 1024;

/** Player data: one JSON document per player and per character, with versions, merges and the 40 KB limit. */
export function createPlayerData({
  db,
  clock,
  games,
  caches = noCaches,
  onBackgroundError = () => {},
}: PlayerDataDeps) {
  const statistics = statisticsRefresher(db, 'player_data', onBackgroundError);
  // Every write drops the documents it changed once it has committed, before it answers; a delete
  // of a player or a game, which cannot name its documents, drops them all.
  const kept = caches.cache<StoredDoc>('player-data', KEPT_DOCS, { max: KEPT_BYTES, of: (d) => 2 * d.data.length });
  const forget = (keys: DocKey[]) => Promise.all(keys.map((k) => kept.invalidate(docId(k))));
  const writes = createDocWrites({ db, clock, games, written: forget });
  const readDoc = store.docReader(db);

  /**
   * Changes one document under the player's lock, in a group commit with the changes arriving
   * alongside (writes.ts): merges of different keys both land, a stale `if_version` is refused,
   * and a too-large result writes nothing.
   */
  function change(key: DocKey, ifVersion: number | undefined, next: DocChange['next'], replacing?: string) {
    if (key.player === GAME_STATE_PLAYER && key.character !== '') throw playerDataErrors.gameStateCharacters();
    return writes.change({ key, ifVersion, next, ...(replacing && { replacing }) });
  }

  return {
    async get(key: DocKey): Promise<StoredDoc> {
      const doc = await kept.get(docId(key), async () => {
        const row = await readDoc(key);
        return row && { data: row.data, version: row.version, updatedAt: row.updated_at };
      });
      return doc ?? NONE;
    },

    /** Replaces the document, or with `overwrite: false` merges its top-level keys into the stored one. */
    async put(key: DocKey, input: { player_data: Doc; overwrite: boolean; if_version?: number | undefined }) {
      // Refused before any database work: a replacement stores this text, and a merge keeps every
      // key sent with its value, so what it stores is never shorter.
      const text = JSON.stringify(input.player_data);
      const bytes = Buffer.byteLength(text, 'utf8');
      if (bytes > MAX_PLAYER_DATA_BYTES) throw playerDataErrors.tooLarge(bytes);
      return change(
        key,
        input.if_version,
        (current) => {
          if (input.overwrite) return input.player_data;
          const stored = current();
          return stored === null ? input.player_data : { ...stored, ...input.player_data };
        },
        input.overwrite ? text : undefined,
      );
    },

    /** Removes the named top-level keys, or the whole document without `keys`; with `if_version`, only from that version. */
    remove(key: DocKey, input: { keys?: string[] | undefined; if_version?: number | undefined } | null | undefined) {
      const keys = input?.keys && new Set(input.keys);
      return change(key, input?.if_version, (current) => {
        if (keys === undefined) return null;
        const stored = current();
        return stored === null ? null : Object.fromEntries(Object.entries(stored).filter(([k]) => !keys.has(k)));
      });
    },

    /**
     * Replaces players' own documents (an import from another service), a chunk of players per
     * transaction, each under its player's lock like a `put` with overwrite. Sizes are checked first: a
     * document past the limit writes nothing. Answers how many were written.
     */
    async importDocs(gameId: string, docs: Array<{ player: string; data: Doc }>): Promise<number> {
      const texts = docs.map((d) => ({ player: d.player, data: JSON.stringify(d.data) }));
      for (const t of texts) {
        const bytes = Buffer.byteLength(t.data, 'utf8');
        if (bytes > MAX_PLAYER_DATA_BYTES) throw playerDataErrors.tooLarge(bytes);
      }
      // Locks are taken in name order, so two imports never wait on each other in a circle.
      texts.sort((a, b) => lockOrder(a.player, b.player));
      for (let i = 0; i < texts.length; i += IMPORT_CHUNK) {
        const chunk = texts.slice(i, i + IMPORT_CHUNK);
        try {
          await db.transaction().execute(async (trx) => {
            if (!(await games.hold(trx, gameId))) throw playerDataErrors.gameGone();
            await store.lockPlayers(
              trx,
              chunk.map((d) => ({ gameId, player: d.player })),
            );
            await store.importDocs(trx, gameId, chunk, clock.now());
          });
        } finally {
          await forget(chunk.map((d) => ({ gameId, player: d.player, character: '' })));
        }
        await nextTurn();
      }
      await statistics.imported(texts.length);
      return texts.length;
    },

    characters: (gameId: string, player: string) => store.listCharacters(db, gameId, player),

    /**
     * Deletes every document of a player (with their account, from the dashboard); answers how many
     * went. It holds the player first, as every write of their documents does, so the two cannot
     * take the documents in opposite orders.
     */
    async deletePlayer(trx: Transaction<DB>, gameId: string, player: string): Promise<number> {
      await store.lockPlayer(trx, gameId, player);
      return store.deletePlayer(trx, gameId, player);
    },

    /** Lets go of every document kept in memory: call once a `deletePlayer` transaction has ended. */
    dropKept: () => kept.clear(),

    /** The game is being deleted: its documents go in its transaction, and once it has committed, what was kept of them. */
    async removeGame(trx: Kysely<DB>, gameId: string): Promise<() => Promise<void>> {
      await store.deleteGame(trx, gameId);
      return async () => kept.clear();
    },

    /** The players' own documents, as text, for a page of the players list. */
    ownDocs: (gameId: string, names: string[]) => store.ownDocs(db, gameId, names),

    /**
     * Every document of a game as one JSON text, produced page by page so memory stays flat:
     * `{game_id, exported_at, players: [{player_name, player_data, characters}], game_state}`.
     */
    async *export(gameId: string): AsyncGenerator<string> {
      yield `{"game_id":${JSON.stringify(gameId)},"exported_at":${JSON.stringify(new Date(clock.now()).toISOString())},"players":[`;
      let gameState = 'null';
      let after: [string, string] | undefined;
      let open: string | undefined; // the player whose entry is being written
      let openHasCharacters = false;
      let first = true;
      for (;;) {
        const rows = await store.exportPage(db, gameId, EXPORT_PAGE, after);
        let chunk = '';
        for (const row of rows) {
          if (row.player_name === GAME_STATE_PLAYER) {
            if (row.character_name === '') gameState = row.data;
            continue;
          }
          if (row.player_name !== open) {
            // Rows come in (player, character) order and '' sorts first: a player's own document leads.
            if (open !== undefined) chunk += '}}';
            const own = row.character_name === '' ? row.data : 'null';
            chunk += `${first ? '' : ','}{"player_name":${JSON.stringify(row.player_name)},"player_data":${own},"characters":{`;
            first = false;
            open = row.player_name;
            openHasCharacters = false;
            if (row.character_name === '') continue;
          }
          chunk += `${openHasCharacters ? ',' : ''}${JSON.stringify(row.character_name)}:${row.data}`;
          openHasCharacters = true;
        }
        if (chunk) yield chunk;
        if (rows.length < EXPORT_PAGE) break;
        const last = rows.at(-1)!;
        after = [last.player_name, last.character_name];
      }
      // A game deleted while this was read ends the pages early: the file must not look whole then,
      // so the download fails instead of closing (a page read after the delete is read after it too).
      if (!(await games.exists(db, gameId))) throw playerDataErrors.gameGone();
      yield `${open === undefined ? '' : '}}'}],"game_state":${gameState}}`;
    },
  };
}

export type PlayerData = ReturnType<typeof createPlayerData>;
