import type { Metadata } from '@howl/contract';
import type { Kysely, Transaction } from 'kysely';
import { writesRowsTogether } from '../../db/dialect-sql.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { DB } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { done, failed, keyedGroupCommit, type RunGroup } from '../../lib/group-commit.js';
import { newScoreId } from '../../lib/tokens.js';
import type { BoardPeriod, RankIndex } from '../ranking/rank-index.js';
import { leaderboardErrors as E, MAX_METADATA_BYTES } from './errors.js';
import type { LeaderboardRow, ScoreRow } from './leaderboards.table.js';
import type { OrderKey } from '../ranking/order.js';
import { runsOf } from './runs.js';
import { saveEntries, saveEntriesHeld } from './save-entry.js';
import * as store from './store.js';

export interface WritesDeps {
  db: Kysely<DB>;
  clock: Clock;
  rankIndex: RankIndex;
  /** The board and the period a write now goes to (read without a lock). */
  resolve(gameId: string, name: string): Promise<{ board: LeaderboardRow; at: BoardPeriod }>;
  /** The period a write to this board goes to now. */
  currentPeriod(board: LeaderboardRow): BoardPeriod;
  /** 1-based position of an entry, or null when it is past the board's size. */
  positionOf(board: LeaderboardRow, at: BoardPeriod, key: OrderKey): Promise<number | null>;
  /** Forgets the game's boards kept in this process: a write found one of them out of date. */
  stale(gameId: string): void;
  /** Drops what is kept of the game's boards, in every process; after the commit. */
  changed(gameId: string): Promise<void>;
  /** Hears how many entries a committed group added (the planner's statistics follow them). */
  added(entries: number): void;
}

/** A score on its way into a group (its metadata already checked and serialised). */
interface Submission {
  gameId: string;
  name: string;
  player_name: string;
  score: number;
  metadata: string | null;
  engine: 3 | 4 | null;
  /** The client's id, when it is a UUID: the entry's id unless an entry has it already. */
  wanted: string | undefined;
}

/** What one save of a group wrote. */
interface Written {
  id: string;
  saved: ScoreRow | undefined;
  removed: store.RemovedEntry[];
  /** When a `highest` board kept the player's better entry: that entry. */
  standing: ScoreRow | undefined;
  /** Why the save cannot answer although its group committed: the rank index did not hear of it, or its standing could not be read. */
  unheard?: unknown;
}

/** The row a group's statement saved for this entry, if it saved one (a `highest` board keeps a better entry). */
const savedRowOf = (board: LeaderboardRow, saved: Map<string, ScoreRow>, entry: { id: string; player_name: string }) =>
  saved.get(board.insert_option === 'keep' ? entry.id : entry.player_name);

interface Submitted {
  board: LeaderboardRow;
  at: BoardPeriod;
  written: Written;
  /** Entries that saves of the same group pushed off the board. */
  pushedOut: Set<string>;
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
export function createScoreWrites({
  db,
  clock,
  rankIndex,
  resolve,
  currentPeriod,
  positionOf,
  stale,
  changed,
  added,
}: WritesDeps) {
  /** Tells the index what a committed write changed. */
  async function follow(at: BoardPeriod, saved: ScoreRow | undefined, removed: store.RemovedEntry[]) {
    if (saved) await rankIndex.saved(at, saved);
    if (removed.length > 0) await rankIndex.removed(at.boardId, removed);
  }

  /** A run's entries, each with its id: the client's when no entry has it (`taken`), else a fresh one. */
  function entriesOf(board: LeaderboardRow, at: BoardPeriod, run: readonly Submission[], taken: Set<string>) {
    return run.map((s) => ({
      id: s.wanted !== undefined && !taken.has(s.wanted) ? s.wanted : newScoreId(),
      leaderboard_id: board.id,
      period_start: at.periodStart,
      player_name: s.player_name,
      score: s.score,
      timestamp: clock.now(),
      metadata: s.metadata,
      engine: s.engine,
    }));
  }

  /**
   * What each save of a run wrote, from the rows the save answered. A `highest` entry that did not
   * beat the player's answers no row: the player's standing entry is read instead (in one read).
   */
  async function writtenOf(
    db: Kysely<DB>,
    board: LeaderboardRow,
    at: BoardPeriod,
    entries: ReturnType<typeof entriesOf>,
    saved: Map<string, ScoreRow>,
    taken: Set<string>,
  ): Promise<Written[]> {
    const rowOf = (entry: (typeof entries)[number]) => savedRowOf(board, saved, entry);
    const kept = entries.filter((entry) => !rowOf(entry)).map((entry) => entry.player_name);
    const standing = await store.findPlayerEntries(db, board.id, at.periodStart, kept);
    const written: Written[] = [];
    for (const entry of entries) {
      const row = rowOf(entry);
      if (row) taken.add(row.id);
      written.push({
        id: entry.id,
        saved: row,
        removed: [],
        standing: row ? undefined : standing.get(entry.player_name),
      });
    }
    return written;
  }

  /**
   * Saves a run of submissions (no two of one player, nor asking for one id) in one statement, the
   * board's lock already held. `taken` holds the ids entries have among those the group's clients
   * asked for, and grows with each save.
   */
  async function saveRun(
    trx: Transaction<DB>,
    board: LeaderboardRow,
    at: BoardPeriod,
    run: readonly Submission[],
    taken: Set<string>,
  ): Promise<Written[]> {
    const entries = entriesOf(board, at, run, taken);
    const saved = await saveEntries(trx, entries, board.insert_option, board.sort);
    const written = await writtenOf(trx, board, at, entries, saved, taken);
    // Only a new entry can push one past the limit; an updated one leaves the count as it was. The
    // index hears of what went after every save of the run.
    if (board.max_entries !== null && written.some((w) => w.saved?.revision === 0)) {
      const limit = { id: board.id, sort: board.sort, maxEntries: board.max_entries };
      written.at(-1)!.removed = await store.trimPeriod(trx, limit, at.periodStart);
    }
    return written;
  }

  /**
   * Saves a group's submissions in arrival order, in as few statements as that order allows: a run
   * ends where a player (or a client's id) comes again. Each save is its own run on SQLite
   * (writesRowsTogether), and on a limited board that is not `keep`: an update there can make
   * another entry the one the limit pushes out, so trimming once after several saves could push out
   * another entry than trimming after each.
   */
  async function saveAll(trx: Transaction<DB>, board: LeaderboardRow, at: BoardPeriod, group: Submission[]) {
    // The clients' ids already in use, in one read for the group (the SilentWolf plugin sends one with every score).
    const taken = await store.takenEntryIds(trx, [
      ...new Set(group.flatMap((s) => (s.wanted === undefined ? [] : [s.wanted]))),
    ]);
    const alone = !writesRowsTogether(trx) || (board.max_entries !== null && board.insert_option !== 'keep');
    const written: Written[] = [];
    for (const run of runsOf(board, group, alone)) written.push(...(await saveRun(trx, board, at, run, taken)));
    return written;
  }

  /**
   * Whether a group on a board without a size limit can be saved by one statement that commits
   * alone (saveHeld): on PostgreSQL, where each statement is a round trip, when the group is one
   * run (runsOf: no player twice on a board that keeps one entry each, no client id twice).
   */
  function savesInOneStatement(board: LeaderboardRow, group: readonly Submission[]): boolean {
    return writesRowsTogether(db) && runsOf(board, group, false).length === 1;
  }

  /**
   * A group's saves as one statement holding the board's shared lock itself (saveEntriesHeld), where
   * the transaction's way is four round trips: BEGIN, the lock, the save, COMMIT. Undefined when
   * nothing was written and the transaction's way must save the group: the board is no longer as
   * it was read (new settings, a wipe, gone), or a client's id is an entry's already (that way
   * gives it a fresh one).
   */
  async function saveHeld(board: LeaderboardRow, at: BoardPeriod, group: Submission[]) {
    const entries = entriesOf(board, at, group, new Set());
    const held = { gameId: group[0]!.gameId, name: group[0]!.name, generation: board.generation };
    let saved: Awaited<ReturnType<typeof saveEntriesHeld>>;
    try {
      saved = await saveEntriesHeld(db, held, entries, board.insert_option, board.sort);
    } catch (err) {
      if (isUniqueViolation(err)) return undefined;
      throw err;
    }
    if (!saved) return undefined;
    try {
      return await writtenOf(db, board, at, entries, saved, new Set());
    } catch (err) {
      // The statement has committed, so nothing may run again: what it saved still reaches the
      // index, and only saves that kept the player's better entry, whose answer needed the read, fail.
      return entries.map((entry): Written => {
        const row = savedRowOf(board, saved, entry);
        return { id: entry.id, saved: row, removed: [], standing: undefined, ...(!row && { unheard: E.unread(err) }) };
      });
    }
  }

  /**
   * Saves a group of submissions to one board in one transaction holding the board's lock, in
   * arrival order (saveAll); the rank index hears of each, in that order, after the commit.
   */
  const saveGroup: RunGroup<Submission, Submitted> = async (group) => {
    const { gameId, name } = group[0]!;
    for (let attempt = 1; ; attempt++) {
      let resolved: Awaited<ReturnType<typeof resolve>>;
      try {
        resolved = await resolve(gameId, name);
      } catch (err) {
        return group.map(() => failed(err));
      }
      let { board, at } = resolved;
      let written: Written[] | 'gone' | 'stale';
      try {
        written = await rankIndex.track([board.id], async () => {
          const lock = board.max_entries === null ? 'share' : 'one';
          const written =
            (lock === 'share' && savesInOneStatement(board, group) ? await saveHeld(board, at, group) : undefined) ??
            (await db.transaction().execute(async (trx) => {
              const held = await store.lockBoard(trx, gameId, name, lock);
              if (!held) return 'gone' as const;
              // A new board of that name (tracked under another id), or one now limited in size
              // (a stronger lock): read again.
              if (held.id !== board.id || (held.max_entries !== null && lock === 'share')) return 'stale' as const;
              // New settings or a wipe since the board was read (or kept): the locked row is the
              // truth until the commit, so the saves follow it rather than start again.
              if (held.generation !== board.generation) {
                stale(gameId);
                board = held;
                at = currentPeriod(held);
              }
              return saveAll(trx, board, at, group);
            }));
          if (typeof written !== 'string') {
            added(written.filter((w) => w.saved?.revision === 0).length);
            await followAll(at, written);
          }
          return written;
        });
      } catch (err) {
        // Another save took the client's id between the check and the insert: a fresh one, then.
        if (group.length === 1 && group[0]!.wanted !== undefined && isUniqueViolation(err)) {
          group = [{ ...group[0]!, wanted: undefined }];
          continue;
        }
        throw err;
      }
      if (written === 'gone') return group.map(() => failed(E.notFound(name)));
      if (written === 'stale') {
        stale(gameId);
        if (attempt < SETTLE_ATTEMPTS) continue;
        return group.map(() => failed(E.busy()));
      }
      const pushedOut = new Set(written.flatMap((w) => w.removed.map((e) => e.id)));
      return written.map((w) =>
        w.unheard === undefined ? done({ board, at, written: w, pushedOut }) : failed(w.unheard),
      );
    }
  };
  const submits = keyedGroupCommit((s: Submission) => `${s.gameId}\u0000${s.name}`, saveGroup);

  /**
   * Tells the index what a committed group changed, in the order it was written. Saves that pushed
   * nothing out go together without waiting on each other: each index takes notices in the order
   * they are sent (Redis answers one connection's commands in order; the in-process index acts at
   * once), so a group costs one round trip instead of one per save. A save that pushed entries out
   * waits for those before it, and those after wait for it. A notice that fails is that save's
   * error alone: the group has committed, so it must not run again.
   */
  async function followAll(at: BoardPeriod, written: Written[]) {
    const hear = (w: Written) =>
      follow(at, w.saved, w.removed).catch((err: unknown) => {
        w.unheard = err;
      });
    let sent: Promise<void>[] = [];
    for (const w of written) {
      if (w.removed.length === 0) {
        sent.push(hear(w));
        continue;
      }
      await Promise.all(sent);
      sent = [];
      await hear(w);
    }
    await Promise.all(sent);
  }

  /** Deletes scores of this game's boards (ids of other games are not touched); answers how many went. */
  async function deleteScores(gameId: string, ids: string[]): Promise<number> {
    const boardIds = await store.boardsOfEntries(db, gameId, ids);
    if (boardIds.length === 0) return 0;
    return rankIndex.track(boardIds, async () => {
      const removed = await db.transaction().execute(async (trx) => {
        // Alone on the board: saves to an unlimited board (a shared lock) take their entries in
        // arrival order, the delete in index order; side by side they could wait on each other.
        await store.lockBoards(trx, boardIds, 'all');
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
     * Saves to one board that arrive together commit together (saveGroup); each answers after the commit.
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
      const wanted = input.score_id !== undefined && UUID.test(input.score_id) ? input.score_id : undefined;
      const { board, at, written, pushedOut } = await submits.enqueue({
        gameId,
        name,
        player_name: input.player_name,
        score: input.score,
        metadata,
        engine,
        wanted,
      });
      const { id, saved, standing } = written;
      if (!saved) {
        return {
          score_id: standing?.id ?? id,
          position: standing ? await positionOf(board, at, standing) : null,
          kept: false,
        };
      }
      const position = pushedOut.has(saved.id) ? null : await positionOf(board, at, saved);
      return { score_id: saved.id, position, kept: position !== null };
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
