import type { SortOrder } from '@howl/contract';
import type { Kysely, Selectable } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { DB } from '../../db/schema.js';
import { inBoardOrder, ranksAbove, ranksBelow, type OrderKey } from './order.js';

/** A row of the scores table, typed from the database's schema: the index needs nothing of the leaderboards module. */
export type ScoreRow = Selectable<DB['scores']>;

/** The columns of a score an index answers with: all but the key that makes a player's entry one per board. */
export const SHOWN_COLUMNS = [
  'id',
  'leaderboard_id',
  'period_start',
  'player_name',
  'score',
  'timestamp',
  'metadata',
  'engine',
  'revision',
] as const;
export type ShownRow = Pick<ScoreRow, (typeof SHOWN_COLUMNS)[number]>;

/** The shown columns of a row that may hold more. */
export function shownRow(row: ShownRow): ShownRow {
  const { id, leaderboard_id, period_start, player_name, score, timestamp, metadata, engine, revision } = row;
  return { id, leaderboard_id, period_start, player_name, score, timestamp, metadata, engine, revision };
}

const rowsById = prepared((db, ...ids) => db.selectFrom('scores').select(SHOWN_COLUMNS).where('id', 'in', ids));

/** The rows of these entries in one read, in the order given; an entry deleted meanwhile is skipped (the answer shows what exists). */
export async function rowsInOrder(db: Kysely<DB>, ids: string[]): Promise<ShownRow[]> {
  if (ids.length === 0) return [];
  // Padded to a power of two with the last id again, so that a dozen compiled queries serve every count (1 to 1001).
  const padded = [...ids];
  while (padded.length & (padded.length - 1)) padded.push(ids.at(-1)!);
  const byId = new Map((await rowsById(db, ...padded)).map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is ShownRow => r !== undefined);
}

/** Entry `id` as the database holds it in this board period, or undefined (deleted, or elsewhere). */
export async function storedIn(db: Kysely<DB>, board: BoardPeriod, id: string): Promise<ShownRow | undefined> {
  const [row] = await rowsInOrder(db, [id]);
  return row && row.leaderboard_id === board.boardId && row.period_start === board.periodStart ? row : undefined;
}

/**
 * Rows an index built from what it holds, and ids of those only the row can tell (it has metadata):
 * these are read in one query and put in place; one deleted meanwhile leaves `undefined`.
 */
export async function withReadRows(
  db: Kysely<DB>,
  rows: Array<ShownRow | string>,
): Promise<Array<ShownRow | undefined>> {
  const ids = rows.filter((r): r is string => typeof r === 'string');
  if (ids.length === 0) return rows as ShownRow[];
  const read = new Map((await rowsInOrder(db, ids)).map((r) => [r.id, r]));
  return rows.map((r) => (typeof r === 'string' ? read.get(r) : r));
}

/** The rows shown, without those deleted meanwhile. */
export const shownOnly = (rows: Array<ShownRow | undefined>) => rows.filter((r): r is ShownRow => r !== undefined);

/** One board's period: the unit a rank index orders. */
export interface BoardPeriod {
  boardId: string;
  periodStart: number;
  sort: SortOrder;
  /** The board's generation when this was read (see `leaderboards.generation`). */
  generation: number;
  /** When the period ends (epoch ms), on boards that reset: past it, an index may let the period go. */
  periodEnd?: number;
}

/**
 * How long a count or an around waits for its board's in-process load before SQL answers it: a
 * million entries load in about 2 s, and the plugin gives up on a call after 10 s.
 */
export const LOAD_WAIT_MS = 5_000;

/**
 * How long it waits for this process's Redis rebuild: a million entries take 10–16 s, and SQL's
 * counts meanwhile slow the rebuild down (5 s answered nothing in 20 s under load), so only a
 * rebuild that hangs is given up on.
 */
export const REBUILD_WAIT_MS = 30_000;

/** After a load or rebuild failed, how long reads leave the board period to SQL rather than wait on another. */
export const LOAD_RETRY_MS = 5_000;

/** How long an in-process index keeps a past period nobody asks about: asked again later, it is loaded again. */
export const PAST_PERIOD_IDLE_MS = 10 * 60_000;
/**
 * Past periods an in-process index holds at once, their bytes, and how many load at once: a client
 * may ask about any of a thousand past periods of every board, and each read of one would otherwise
 * load it for 10 minutes.
 */
export const PAST_PERIODS_HELD = { count: 64, bytes: 256 * 1024 * 1024, loads: 2 };

/** Whether the period is over at `now` (periods of boards that never reset never are). */
export function periodEnded(board: { periodEnd?: number | undefined }, now: number): boolean {
  return board.periodEnd !== undefined && now >= board.periodEnd;
}

/**
 * Whether an in-process index may let the period go: it is over and nobody asked about it since
 * `lastRead` for `idleMs`. Current periods stay, however quiet: reloading a big one costs seconds.
 */
export function idlePastPeriod(
  board: { periodEnd?: number | undefined },
  lastRead: number,
  now: number,
  idleMs = PAST_PERIOD_IDLE_MS,
): boolean {
  return periodEnded(board, now) && now - lastRead >= idleMs;
}

/** An entry as an index orders it; `revision` tells a newer state of the same entry from an older one. */
export interface IndexedEntry extends OrderKey {
  revision: number;
}

/**
 * Positions, neighbours and pages of one board period, in the board's total order. The database
 * stays the truth: the service tells the index about every write once it is committed, and an
 * index may answer from its own structure as long as it agrees with SQL. Notices can arrive late
 * and out of order: an index applies a saved entry only when it is newer than what it holds
 * (`revision`), never after the entry was removed unless the database holds its id again (a client
 * may name a deleted score's id: recent-removals.ts `savedAgain`), and never when it was made under
 * an older board generation. The SQL implementation below is the reference every
 * other one is tested against.
 */
export interface RankIndex {
  /**
   * Entries that rank strictly below `after` (from the top when absent), best first, at most `limit`.
   * A frozen answer is shared: the same array comes back while those entries stay the same.
   */
  page(board: BoardPeriod, after: OrderKey | undefined, limit: number): Promise<readonly ShownRow[]>;
  /** Entries that rank strictly above `key`, nearest first, at most `limit`. */
  above(board: BoardPeriod, key: OrderKey, limit: number): Promise<ShownRow[]>;
  /** How many entries rank strictly above `key`. */
  countAbove(board: BoardPeriod, key: OrderKey): Promise<number>;
  /** `countAbove`, `above` and `page` after `key` at once, each side at most `count`: an index reads both sides' rows in one query. */
  around(board: BoardPeriod, key: OrderKey, count: number): Promise<Around>;
  /**
   * The order key of entry `id` in this board period as the index holds it (what its ranks are
   * of): at once from memory, or in one round trip to Redis. Undefined when only SQL can tell
   * (another period, a period not loaded, an entry the index has not heard of, Redis out of reach).
   * Await it: an index kept elsewhere answers a promise.
   */
  keyOf(board: BoardPeriod, id: string): OrderKey | undefined | Promise<OrderKey | undefined>;

  /**
   * An entry was saved or updated (its state after the write, under `board.generation`). The write
   * side passes the whole row, which an index keeping rows (top-rows.ts) shows as it is.
   */
  saved(board: BoardPeriod, entry: IndexedEntry): Promise<void>;
  /** Entries were deleted (by id, from any period of the board). */
  removed(boardId: string, entries: Array<OrderKey & { period_start: number }>): Promise<void>;
  /**
   * Anything may have changed on the board (a wipe, a trim of every period, new settings): forget
   * it and drop notices older than `generation`. `null`: the board is gone for good.
   */
  reset(boardId: string, generation: number | null): Promise<void>;
  /**
   * Runs a write to these boards and its notices. An index shared between processes records the
   * write as under way until `run` settles, so that a process killed in between leaves a trace
   * that `reconcile` finds.
   */
  track<T>(boardIds: string[], run: () => Promise<T>): Promise<T>;
  /** At start: forgets every board a write was under way on when a process stopped. Answers how many. */
  reconcile(): Promise<number>;
}

/** The neighbours of a key: how many rank above it, and up to `count` rows on each side, nearest first. */
export interface Around {
  countAbove: number;
  above: ShownRow[];
  below: readonly ShownRow[];
}

/** `around` asked of an index one question at a time (the SQL reference's way). */
export async function aroundByParts(
  index: RankIndex,
  board: BoardPeriod,
  key: OrderKey,
  count: number,
): Promise<Around> {
  return {
    countAbove: await index.countAbove(board, key),
    above: await index.above(board, key, count),
    below: await index.page(board, key, count),
  };
}

/** The reference: SQL over the scores table, ordered by the `scores_rank` index. Needs no upkeep. */
export function sqlRankIndex(db: Kysely<DB>): RankIndex {
  const period = (board: BoardPeriod) =>
    db.selectFrom('scores').where('leaderboard_id', '=', board.boardId).where('period_start', '=', board.periodStart);

  const index: RankIndex = {
    async page(board, after, limit) {
      let q = period(board).select(SHOWN_COLUMNS);
      if (after) q = q.where((eb) => ranksBelow(eb, after, board.sort));
      return inBoardOrder(q, board.sort).limit(limit).execute();
    },
    async above(board, key, limit) {
      const q = period(board)
        .select(SHOWN_COLUMNS)
        .where((eb) => ranksAbove(eb, key, board.sort));
      return inBoardOrder(q, board.sort, true).limit(limit).execute();
    },
    async countAbove(board, key) {
      const row = await period(board)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where((eb) => ranksAbove(eb, key, board.sort))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    around: (board, key, count) => aroundByParts(index, board, key, count),
    keyOf: () => undefined,
    saved: async () => {},
    removed: async () => {},
    reset: async () => {},
    track: (_boardIds, run) => run(),
    reconcile: async () => 0,
  };
  return index;
}
