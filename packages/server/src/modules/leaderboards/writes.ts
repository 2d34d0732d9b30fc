import type { Metadata } from '@howl/contract';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { DB } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/tokens.js';
import type { BoardPeriod, RankIndex } from '../ranking/rank-index.js';
import { leaderboardErrors as E, MAX_METADATA_BYTES } from './errors.js';
import type { LeaderboardRow, ScoreRow } from './leaderboards.table.js';
import type { OrderKey } from '../ranking/order.js';
import * as store from './store.js';

export interface WritesDeps {
  db: Kysely<DB>;
  clock: Clock;
  rankIndex: RankIndex;
  /** The board and the period a write now goes to (read without a lock). */
  resolve(gameId: string, name: string): Promise<{ board: LeaderboardRow; at: BoardPeriod }>;
  /** 1-based position of an entry, or null when it is past the board's size. */
  positionOf(board: LeaderboardRow, at: BoardPeriod, key: OrderKey): Promise<number | null>;
  /** Forgets the game's boards kept in this process: a write found one of them out of date. */
  stale(gameId: string): void;
  /** Drops what is kept of the game's boards, in every process; after the commit. */
  changed(gameId: string): Promise<void>;
}

/** How often a save starts again because the board's settings changed under it. */
const SETTLE_ATTEMPTS = 5;

/** A client-made score id (the SilentWolf plugin makes UUIDs), taken as the entry's id when unused. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Every write to scores. Each runs in one transaction holding its board's lock (store.BoardLock),
 * so what it decides (which entry a save pushes out, what a wipe empties) is decided against the
 * database's truth; the rank index hears of it only after the commit, and follows.
 */
export function createScoreWrites({ db, clock, rankIndex, resolve, positionOf, stale, changed }: WritesDeps) {
  /** Tells the index what a committed write changed. */
  async function follow(at: BoardPeriod, saved: ScoreRow | undefined, removed: store.RemovedEntry[]) {
    if (saved) await rankIndex.saved(at, saved);
    if (removed.length > 0) await rankIndex.removed(at.boardId, removed);
  }

  /** Deletes scores of this game's boards (ids of other games are not touched); answers how many went. */
  async function deleteScores(gameId: string, ids: string[]): Promise<number> {
    const boardIds = await store.boardsOfEntries(db, gameId, ids);
    if (boardIds.length === 0) return 0;
    return rankIndex.track(boardIds, async () => {
      const removed = await db.transaction().execute(async (trx) => {
        await store.lockBoards(trx, boardIds, 'one');
        return store.deleteEntries(trx, gameId, ids);
      });
      for (const boardId of new Set(removed.map((e) => e.leaderboard_id))) {
        await rankIndex.removed(
          boardId,
          removed.filter((e) => e.leaderboard_id === boardId),
        );
      }
      return removed.length;
    });
  }

  return {
    /**
     * Saves a score the board's way and answers where it stands. A `score_id` the client made is
     * the new entry's id when it is a UUID no entry has yet; otherwise the entry gets a fresh one.
     */
    async submit(
      gameId: string,
      name: string,
      input: { player_name: string; score: number; metadata?: Metadata | undefined; score_id?: string | undefined },
      engine: 3 | 4 | null,
    ): Promise<{ score_id: string; position: number | null; kept: boolean }> {
      const metadata = input.metadata === undefined ? null : JSON.stringify(input.metadata);
      const bytes = metadata === null ? 0 : Buffer.byteLength(metadata, 'utf8');
      if (bytes > MAX_METADATA_BYTES) throw E.metadataTooLarge(bytes);
      let wanted = input.score_id !== undefined && UUID.test(input.score_id) ? input.score_id : undefined;
      for (let attempt = 1; ; attempt++) {
        const { board, at } = await resolve(gameId, name);
        const id = wanted ?? newId();
        const outcome = await rankIndex
          .track([board.id], async () => {
            const written = await db.transaction().execute(async (trx) => {
              if (wanted !== undefined && (await store.entryExists(trx, wanted))) return 'id taken';
              const held = await store.lockBoard(trx, gameId, name, board.max_entries === null ? 'share' : 'one');
              if (!held) throw E.notFound(name);
              // New settings or a wipe since the board was read (or kept), or a new board of that
              // name: its period or mode may differ, so it is read again.
              if (held.id !== board.id || held.generation !== board.generation) return undefined;
              const entry = {
                id,
                leaderboard_id: board.id,
                period_start: at.periodStart,
                player_name: input.player_name,
              };
              const saved = await store.saveEntry(
                trx,
                { ...entry, score: input.score, timestamp: clock.now(), metadata, engine },
                board.insert_option,
                board.sort,
              );
              if (!saved) {
                // A `highest` board kept the player's better entry.
                return {
                  saved,
                  removed: [],
                  standing: await store.findPlayerEntry(trx, board.id, at.periodStart, input.player_name),
                };
              }
              // Only a new entry can push one past the limit; an updated one leaves the count as it was.
              const removed =
                board.max_entries !== null && saved.revision === 0
                  ? await store.trimPeriod(
                      trx,
                      { id: board.id, sort: board.sort, maxEntries: board.max_entries },
                      at.periodStart,
                    )
                  : [];
              return { saved, removed, standing: undefined };
            });
            if (written && written !== 'id taken') await follow(at, written.saved, written.removed);
            return written;
          })
          .catch((err: unknown) => {
            // Another save took the client's id between the check and the insert.
            if (wanted !== undefined && isUniqueViolation(err)) return 'id taken' as const;
            throw err;
          });
        if (outcome === 'id taken') {
          wanted = undefined;
          continue;
        }
        if (!outcome) {
          stale(gameId);
          if (attempt < SETTLE_ATTEMPTS) continue;
          throw E.busy();
        }
        const { saved, removed, standing } = outcome;
        if (!saved) {
          return {
            score_id: standing?.id ?? id,
            position: standing ? await positionOf(board, at, standing) : null,
            kept: false,
          };
        }
        const position = removed.some((e) => e.id === saved.id) ? null : await positionOf(board, at, saved);
        return { score_id: saved.id, position, kept: position !== null };
      }
    },

    /** Empties every period of the board. */
    async wipe(gameId: string, name: string): Promise<void> {
      const { board } = await resolve(gameId, name);
      await rankIndex.track([board.id], async () => {
        const { id, generation } = await db.transaction().execute(async (trx) => {
          // The held row's id: a kept board may be one deleted since and made again under its name.
          const held = await store.lockBoard(trx, gameId, name, 'all');
          if (!held) throw E.notFound(name);
          return { id: held.id, generation: await store.wipe(trx, held.id) };
        });
        await changed(gameId);
        await rankIndex.reset(id, generation);
      });
    },

    deleteScores,

    async deleteScore(gameId: string, id: string): Promise<void> {
      if ((await deleteScores(gameId, [id])) === 0) throw E.scoreNotFound();
    },
  };
}
