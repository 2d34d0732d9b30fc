import { MAX_CHARACTERS_PER_PLAYER, MAX_PLAYER_DATA_BYTES } from '@howl/contract';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { lockOrder, writesRowsTogether } from '../../db/dialect-sql.js';
import type { Clock } from '../../lib/clock.js';
import { done, failed, keyedGroupCommit, type Outcome } from '../../lib/group-commit.js';
import type { GameHold } from '../games/service.js';
import { playerDataErrors } from './errors.js';
import type { PlayerDataTable } from './player-data.table.js';
import * as store from './store.js';
import { docId, toKey, type DocKey } from './store.js';

export type Doc = Record<string, unknown>;

/** A stored document as it goes out: its JSON text, never parsed and re-serialised on the way. */
export interface StoredDoc {
  data: string;
  version: number;
  updatedAt: number | null;
}

export const NONE: StoredDoc = { data: '{}', version: 0, updatedAt: null };

/**
 * One change of one document: `next` makes the new document (null: delete it), asking for the
 * current one only when it needs it (a replacement never parses what it replaces).
 */
export interface DocChange {
  key: DocKey;
  ifVersion: number | undefined;
  next(current: () => Doc | null): Doc | null;
  /** The whole new document's JSON text when the change replaces whatever is stored (a put with overwrite): what `next` answers, serialised once. */
  replacing?: string;
}

const playerId = (k: DocKey) => JSON.stringify([k.gameId, k.player]);

/**
 * Document changes of one game that arrive together commit together: one transaction holds their game and
 * players (in a fixed order, as imports take them), reads every document in one statement, applies
 * the changes one after another in arrival order (so for one document the later wins, and merges
 * build on each other), and writes what they left in one upsert and one delete.
 */
export function createDocWrites({
  db,
  clock,
  games,
  written,
}: {
  db: Kysely<DB>;
  clock: Clock;
  games: GameHold;
  /**
   * Hears the documents a group may have changed, once its transaction has ended and before it
   * answers. It must not throw: a group that throws is taken for uncommitted and run again.
   */
  written: (keys: DocKey[]) => Promise<unknown>;
}) {
  async function changeGroup(trx: Transaction<DB>, group: DocChange[]): Promise<Array<Outcome<StoredDoc>>> {
    // A game deleted meanwhile takes its data with it; a write after that has nowhere to go.
    const live = new Set<string>();
    for (const gameId of heldBy(group.map((c) => c.key)).games) {
      if (await games.hold(trx, gameId)) live.add(gameId);
    }
    await store.lockPlayers(trx, heldBy(group.map((c) => c.key).filter((k) => live.has(k.gameId))).players);

    const keys = new Map<string, DocKey>();
    for (const c of group) if (live.has(c.key.gameId)) keys.set(docId(c.key), c.key);
    const stored = new Map((await store.findDocs(trx, [...keys.values()])).map((r) => [docId(toKey(r)), r]));
    // Each document as the group has left it so far; null: deleted.
    const now = new Map<string, PlayerDataTable | null>(stored);
    const savedCharacters = new Map<string, string[]>();

    /** The player's characters as the group has left them so far. */
    async function characters(key: DocKey): Promise<Set<string>> {
      const id = playerId(key);
      let saved = savedCharacters.get(id);
      if (!saved) {
        saved = await store.listCharacters(trx, key.gameId, key.player);
        savedCharacters.set(id, saved);
      }
      const names = new Set(saved);
      for (const [k, row] of now) {
        const at = keys.get(k)!;
        if (at.character === '' || playerId(at) !== id) continue;
        if (row) names.add(at.character);
        else names.delete(at.character);
      }
      return names;
    }

    async function apply(c: DocChange): Promise<Outcome<StoredDoc>> {
      const { key } = c;
      if (!live.has(key.gameId)) return failed(playerDataErrors.gameGone());
      const row = now.get(docId(key)) ?? undefined;
      const version = row?.version ?? 0;
      if (c.ifVersion !== undefined && c.ifVersion !== version)
        return failed(playerDataErrors.versionConflict(version));
      const doc = c.next(() => (row ? (JSON.parse(row.data) as Doc) : null));
      if (doc === null) {
        if (row) now.set(docId(key), null);
        return done(NONE);
      }
      const data = c.replacing ?? JSON.stringify(doc);
      const bytes = Buffer.byteLength(data, 'utf8');
      if (bytes > MAX_PLAYER_DATA_BYTES) return failed(playerDataErrors.tooLarge(bytes));
      if (!row && key.character !== '' && (await characters(key)).size >= MAX_CHARACTERS_PER_PLAYER) {
        return failed(playerDataErrors.characterLimit());
      }
      const next = {
        game_id: key.gameId,
        player_name: key.player,
        character_name: key.character,
        data,
        version: version + 1,
        updated_at: clock.now(),
      };
      now.set(docId(key), next);
      return done({ data, version: next.version, updatedAt: next.updated_at });
    }

    const outcomes: Array<Outcome<StoredDoc>> = [];
    for (const c of group) outcomes.push(await apply(c));
    const gone = [...now].filter(([k, row]) => row === null && stored.has(k)).map(([k]) => keys.get(k)!);
    await store.deleteDocs(trx, gone);
    await store.saveDocs(
      trx,
      [...now].filter(([k, row]) => row !== null && row !== stored.get(k)).map(([, row]) => row!),
    );
    return outcomes;
  }

  /**
   * A group that replaces players' own documents outright, each once and without a version to
   * check, as one statement holding its games and players itself (store.replaceOwnDocsHeld): on
   * PostgreSQL, where the transaction's way is six round trips. Nothing to read first: the new
   * version is the stored one's plus one. Undefined when a game is gone (the transaction's way
   * answers for it).
   */
  async function replaceHeld(group: DocChange[]): Promise<Array<Outcome<StoredDoc>> | undefined> {
    // Sizes were checked before the change was queued (service.put).
    const texts = group.map((c) => c.replacing!);
    const docs = group.map((c, i) => ({ ...c.key, data: texts[i]! }));
    const now = clock.now();
    const saved = await store.replaceOwnDocsHeld(db, heldBy(docs), docs, now);
    if (!saved) return undefined;
    const versions = new Map(
      saved.map((r) => [playerId({ gameId: r.game_id, player: r.player_name, character: '' }), r.version]),
    );
    return group.map((c, i) => done({ data: texts[i]!, version: versions.get(playerId(c.key))!, updatedAt: now }));
  }

  const replacesOutright = (group: DocChange[]) =>
    writesRowsTogether(db) &&
    group.every((c) => c.replacing !== undefined && c.ifVersion === undefined && c.key.character === '') &&
    new Set(group.map((c) => docId(c.key))).size === group.length;

  // A group per game: one game's writes waiting on its row (a delete of the game holds it) hold up no other game's.
  const writes = keyedGroupCommit<DocChange, StoredDoc>(
    (c) => c.key.gameId,
    async (group) => {
      try {
        return (
          (replacesOutright(group) ? await replaceHeld(group) : undefined) ??
          (await db.transaction().execute((trx) => changeGroup(trx, group)))
        );
      } finally {
        await written(group.map((c) => c.key));
      }
    },
  );
  return { change: (c: DocChange) => writes.enqueue(c), stats: writes.stats };
}

/**
 * What a group's writes hold, each once, in the one order every writer takes them (lockOrder), so
 * that two groups never wait on each other in a circle: its games, then its players.
 */
function heldBy(keys: DocKey[]): { games: string[]; players: DocKey[] } {
  const players = new Map(keys.map((k) => [playerId(k), k]));
  return {
    games: [...new Set(keys.map((k) => k.gameId))].sort(lockOrder),
    players: [...players.values()].sort((a, b) => lockOrder(a.gameId, b.gameId) || lockOrder(a.player, b.player)),
  };
}
