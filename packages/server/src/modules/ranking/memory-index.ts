import type { CompiledQuery, Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { semaphore } from '../../lib/semaphore.js';
import { resolvesWithin } from '../../lib/timeout.js';
import type { OrderKey } from './order.js';
import { countQuery, periodColumns, rowsThrough } from './load-chunks.js';
import { EntryTable, shownBits } from './entry-table.js';
import { RecentRemovals } from './recent-removals.js';
import { SQL_COUNTS_AT_ONCE } from './rebuild-wait.js';
import { Period } from './memory-period.js';
import {
  aroundByParts,
  idlePastPeriod,
  LOAD_RETRY_MS,
  LOAD_WAIT_MS,
  PAST_PERIOD_IDLE_MS,
  PAST_PERIODS_HELD,
  periodEnded,
  shownOnly,
  sqlRankIndex,
  withReadRows,
  type BoardPeriod,
  type IndexedEntry,
  type RankIndex,
} from './rank-index.js';

export interface MemoryIndexOptions {
  /** How long a count waits for a load under way before SQL answers it (tests make it short). */
  loadWaitMs?: number;
  /** Rows per read while loading: bounds the transient objects a load creates (tests make it small). */
  chunk?: number;
  /** Runs a query answering rows as arrays (the database's `rows`): a load then makes no object per row. */
  rows?: (query: CompiledQuery) => Promise<unknown[][]>;
  /** A past period (of a board that resets) nobody asked about for this long is let go (rank-index.ts idlePastPeriod). */
  idleMs?: number;
  /** The time, for letting idle periods and old removals go (tests move it). */
  now?: () => number;
  /** Past periods held at once, their bytes, and loads at once (rank-index.ts PAST_PERIODS_HELD; tests make them small). */
  pastPeriods?: { count: number; bytes: number; loads: number };
}

/** `used`: when the period was last asked about; `periodEnd`: when it ends, on boards that reset. */
type Slot = { used: number; periodEnd: number | undefined } & (
  | { state: 'loading'; sort: BoardPeriod['sort']; pending: Array<(p: Period) => void>; done: Promise<void> }
  | { state: 'ready'; period: Period }
);

/**
 * The in-process rank index: one order-statistic list per board period, loaded from the database
 * the first time the period is asked about (pages and aboves read SQL until it is ready; counts
 * and arounds wait for it) and kept in step by the
 * service's write notifications. Only for a single server process: another process's writes would
 * never reach it (with REDIS_URL set, use the Redis index).
 */
export function memoryRankIndex(
  db: Kysely<DB>,
  options: MemoryIndexOptions = {},
): RankIndex & {
  settled(): Promise<void>;
  entries(): number;
  bytes(): number;
  periods(): number;
  holds(board: BoardPeriod): boolean;
} {
  const sql = sqlRankIndex(db);
  const chunk = options.chunk ?? 10_000;
  const rowsOf = options.rows ?? rowsThrough(db);
  const idleMs = options.idleMs ?? PAST_PERIOD_IDLE_MS;
  const loadWaitMs = options.loadWaitMs ?? LOAD_WAIT_MS;
  const now = options.now ?? Date.now;
  const pastHeld = options.pastPeriods ?? PAST_PERIODS_HELD;
  const slots = new Map<string, Slot>();
  const slotKey = (boardId: string, periodStart: number) => `${boardId}\u0000${periodStart}`;
  /** The newest generation seen per board: notices from older ones are stale. */
  const generations = new Map<string, number>();
  const removedIds = new RecentRemovals();
  /** When each period's last load failed, until one succeeds: reads do not wait on the next for a while. */
  const failedAt = new Map<string, number>();
  const sqlCounts = semaphore(SQL_COUNTS_AT_ONCE);
  let lastSweep = now();
  /** Until when the past periods are known to be all held (`roomForPast`): no walk of the slots per read meanwhile. */
  let pastFullUntil = 0;

  /** Drops the board's periods when `generation` is newer than what they were loaded under. */
  function follow(boardId: string, generation: number): void {
    const known = generations.get(boardId);
    if (known !== undefined && generation <= known) return;
    generations.set(boardId, generation);
    if (known !== undefined) forget(boardId);
  }

  function forget(boardId: string): void {
    pastFullUntil = 0;
    for (const key of slots.keys()) if (key.startsWith(`${boardId}\u0000`)) slots.delete(key);
    for (const key of failedAt.keys()) if (key.startsWith(`${boardId}\u0000`)) failedAt.delete(key);
  }

  /** Lets go of past periods nobody asked about lately, at most once a minute (on a read). */
  function sweep(at: number): void {
    if (at - lastSweep < 60_000) return;
    lastSweep = at;
    for (const [key, slot] of slots) if (idlePastPeriod(slot, slot.used, at, idleMs)) slots.delete(key);
    removedIds.forgetBefore(at);
  }

  /** The ready period, or undefined while it loads (the first call starts the load). */
  function ready(board: BoardPeriod): Period | undefined {
    const at = now();
    sweep(at);
    follow(board.boardId, board.generation);
    const key = slotKey(board.boardId, board.periodStart);
    const slot = slots.get(key);
    if (slot) slot.used = at;
    const p = readyIn(slot, board.sort);
    // None yet, or one of the other sort (the board's order changed): load it.
    if (!p && (!slot || slot.state === 'ready')) load(key, board);
    return p;
  }

  /** The period a slot holds loaded in `sort`'s order, if any: a look only, starting no load. */
  function readyIn(slot: Slot | undefined, sort: BoardPeriod['sort']): Period | undefined {
    return slot?.state === 'ready' && slot.period.sort === sort ? slot.period : undefined;
  }

  /**
   * The ready period, waiting for its load when one is under way: a count (a position, an around)
   * by SQL walks every entry above the key, a board's worth on a large board, and on SQLite on the
   * serving thread, so many of them while a large board loads would starve the load itself. A
   * page or an above stays with SQL while it loads: theirs is an indexed walk of `limit` rows.
   * Undefined when the load failed or the board was reset meanwhile, and at once when it is a load
   * of the other sort, the last load failed lately, or it takes longer than `LOAD_WAIT_MS`: SQL
   * answers that call, a few at a time (`bySql`).
   */
  async function loaded(board: BoardPeriod): Promise<Period | undefined> {
    const p = ready(board);
    if (p) return p;
    const key = slotKey(board.boardId, board.periodStart);
    const slot = slots.get(key);
    if (slot?.state !== 'loading' || slot.sort !== board.sort) return undefined;
    if (now() - (failedAt.get(key) ?? -Infinity) < LOAD_RETRY_MS) return undefined;
    if (!(await resolvesWithin(slot.done, loadWaitMs))) return undefined;
    return readyIn(slots.get(key), board.sort);
  }

  /** The past periods held or loading other than `key`'s, least lately asked about first. */
  function pastSlots(except: string): Array<[string, Slot]> {
    const at = now();
    return [...slots]
      .filter(([key, slot]) => key !== except && periodEnded(slot, at))
      .sort(([, a], [, b]) => a.used - b.used);
  }

  /**
   * Whether another past period may load: fewer than `count` held and `loads` loading. Past that,
   * SQL answers for it until idle ones go (a client cycling through many past periods would
   * otherwise load one on nearly every read).
   */
  function roomForPast(key: string): boolean {
    if (now() < pastFullUntil) return false;
    const others = pastSlots(key);
    if (others.length >= pastHeld.count) {
      // Only the next sweep (or a reset) lets one go: until then every read of another would walk the slots again.
      pastFullUntil = lastSweep + 60_000;
      return false;
    }
    return others.filter(([, s]) => s.state === 'loading').length < pastHeld.loads;
  }

  /** Once a past period has loaded: lets go of those least lately asked about until the rest fit in `bytes`. */
  function trimPast(key: string, loaded: Period): void {
    const others = pastSlots(key).flatMap(([other, s]) => (s.state === 'ready' ? [[other, s.period] as const] : []));
    let bytes = others.reduce((sum, [, period]) => sum + period.bytes(), loaded.bytes());
    for (const [other, period] of others) {
      if (bytes <= pastHeld.bytes) break;
      slots.delete(other);
      bytes -= period.bytes();
    }
  }

  function load(key: string, board: BoardPeriod): void {
    if (periodEnded(board, now()) && !roomForPast(key)) return;
    const pending: Array<(p: Period) => void> = [];
    const done = read(board)
      .then((period) => {
        failedAt.delete(key);
        const current = slots.get(key);
        if (current?.state !== 'loading' || current.done !== done) return; // reset while loading
        // Writes that were notified while the rows were read: each is idempotent, so replaying one the rows already hold is harmless.
        for (const apply of pending) apply(period);
        slots.set(key, { state: 'ready', period, used: current.used, periodEnd: current.periodEnd });
        if (periodEnded(current, now())) trimPast(key, period);
      })
      .catch(() => {
        // Failed loads are retried by the next read; SQL keeps answering.
        failedAt.set(key, now());
        if (slots.get(key)?.state === 'loading') slots.delete(key);
        pastFullUntil = 0;
      });
    slots.set(key, { state: 'loading', sort: board.sort, pending, done, used: now(), periodEnd: board.periodEnd });
  }

  /**
   * Reads the period in the `scores_rank` index's own order (score, timestamp, name, id, all
   * ascending, with the revision, engine and whether there is metadata: the walk never leaves the index), a chunk at a time from where
   * the last ended, so the database never sorts and no more than a chunk of row objects lives at
   * once. A `desc` board's order is then the score
   * groups taken from the end, each group kept as read.
   */
  async function read(board: BoardPeriod): Promise<Period> {
    // Through `rows` too: on a SQLite file, counting a million entries is another thread's work.
    const [counted] = await rowsOf(countQuery(db, board));
    const held = Number(counted?.[0] ?? 0) + 256;
    const table = new EntryTable(held, held * 32);
    for await (const [id, score, timestamp, name, revision, engine, meta] of periodColumns(db, board, chunk, rowsOf)) {
      for (let i = 0; i < id.length; i++) {
        table.load(id[i]!, name[i]!, score[i]!, timestamp[i]!, revision[i]!, shownBits(meta[i], engine[i]));
      }
    }
    table.trim();
    const order = new Int32Array(table.live);
    let n = 0;
    if (board.sort === 'asc') {
      for (let k = 0; k < table.numbers; k++) if (table.ref[k] !== -1) order[n++] = k;
    } else {
      for (let end = table.numbers; end > 0;) {
        let start = end - 1;
        while (start > 0 && table.score[start - 1] === table.score[end - 1]) start--;
        for (let k = start; k < end; k++) if (table.ref[k] !== -1) order[n++] = k;
        end = start;
      }
    }
    return new Period(board.sort, table, order);
  }

  /** Applies a change now, or after the load when the period is loading; a period not loaded needs nothing. */
  function change(boardId: string, periodStart: number, apply: (p: Period) => void): void {
    const slot = slots.get(slotKey(boardId, periodStart));
    if (slot?.state === 'ready') apply(slot.period);
    else if (slot?.state === 'loading') slot.pending.push(apply);
  }

  /**
   * The rows of entries `ks` in order: built from the table (taken now, before any await, as the
   * index held them when asked), and read in one query only for those whose row has metadata; a
   * row that query no longer finds (deleted meanwhile) is undefined, in its place.
   */
  const rowsAt = (board: BoardPeriod, p: Period, ks: number[]) =>
    withReadRows(
      db,
      ks.map((k) => p.shown(board, k)),
    );

  /**
   * A count SQL answers while the period is not loaded (loaded() gave up on it): a few at a time, so
   * a crowd of them cannot fill the pool or starve the load. A call still waiting its turn when the
   * load under way ends is answered by the index then, as is one whose turn comes after.
   */
  function bySql<T>(board: BoardPeriod, fromIndex: (p: Period) => T | Promise<T>, fromSql: () => Promise<T>) {
    const key = slotKey(board.boardId, board.periodStart);
    // `readyIn` only looks: a load found missing or failed is the next read's to start.
    const turn = sqlCounts(async () => {
      const p = readyIn(slots.get(key), board.sort);
      return p ? fromIndex(p) : fromSql();
    });
    const loading = slots.get(key);
    if (loading?.state !== 'loading' || loading.sort !== board.sort) return turn;
    const afterLoad = loading.done.then(() => {
      const p = readyIn(slots.get(key), board.sort);
      return p ? fromIndex(p) : turn;
    });
    return Promise.race([turn, afterLoad]);
  }

  /** `count` entries on each side of `key`, and how many stand above it, from a loaded period. */
  async function aroundIn(board: BoardPeriod, p: Period, key: OrderKey, count: number) {
    const probe = p.probe(key);
    const countAbove = p.list.lowerBound(probe);
    const above = p.list.range(countAbove - 1, count, -1);
    // Only the entry the key is of compares equal to it, and then it stands at countAbove: skip it.
    const next = p.list.range(countAbove, count + 1);
    const below = next.length > 0 && probe(next[0]!) === 0 ? next.slice(1) : next.slice(0, count);
    // Both sides at once (one query at most); the rows come back in place, so the split is by count.
    const rows = await rowsAt(board, p, [...above, ...below]);
    return {
      countAbove,
      above: shownOnly(rows.slice(0, above.length)),
      below: shownOnly(rows.slice(above.length)),
    };
  }

  return {
    async page(board, after, limit) {
      const p = ready(board);
      if (!p) return sql.page(board, after, limit);
      const from = after ? p.list.upperBound(p.probe(after)) : 0;
      return shownOnly(await rowsAt(board, p, p.list.range(from, limit)));
    },
    async above(board, key, limit) {
      const p = ready(board);
      if (!p) return sql.above(board, key, limit);
      return shownOnly(await rowsAt(board, p, p.list.range(p.list.lowerBound(p.probe(key)) - 1, limit, -1)));
    },
    async countAbove(board, key) {
      const count = (p: Period) => p.list.lowerBound(p.probe(key));
      const p = await loaded(board);
      return p ? count(p) : bySql(board, count, () => sql.countAbove(board, key));
    },
    async around(board, key, count) {
      const p = await loaded(board);
      const near = (q: Period) => aroundIn(board, q, key, count);
      return p ? near(p) : bySql(board, near, () => aroundByParts(sql, board, key, count));
    },
    keyOf(board, id) {
      const t = ready(board)?.table;
      const k = t ? t.find(id) : -1;
      if (!t || k < 0) return undefined;
      return { score: t.score[k]!, timestamp: t.timestamp[k]!, player_name: t.nameOf(k), id };
    },
    async saved(board, entry) {
      if ((generations.get(board.boardId) ?? -1) > board.generation) return; // made before a wipe or new settings
      follow(board.boardId, board.generation);
      let copy: IndexedEntry = { ...entry };
      if (removedIds.has(copy.id)) {
        const again = await removedIds.savedAgain(db, board, copy.id);
        // Wiped or reset while the row was read: the row may be gone with it.
        if (!again || (generations.get(board.boardId) ?? -1) > board.generation) return;
        copy = again;
      }
      change(board.boardId, board.periodStart, (p) => {
        if (!removedIds.has(copy.id)) p.save(copy);
      });
    },
    async removed(boardId, entries) {
      const at = now();
      for (const e of entries) {
        removedIds.add(e.id, at);
        change(boardId, e.period_start, (p) => p.remove(e.id));
      }
    },
    async reset(boardId, generation) {
      forget(boardId);
      if (generation === null) generations.delete(boardId);
      else generations.set(boardId, Math.max(generation, generations.get(boardId) ?? generation));
    },
    track: (_boardIds, run) => run(),
    reconcile: async () => 0,
    /** Board periods held (loaded or loading). */
    periods: () => slots.size,
    /** Whether this period is loaded: a look only, starting no load. */
    holds: (board: BoardPeriod) =>
      readyIn(slots.get(slotKey(board.boardId, board.periodStart)), board.sort) !== undefined,
    /** Resolves once every load under way has finished (tests and benchmarks wait on it). */
    async settled() {
      await Promise.all([...slots.values()].map((s) => (s.state === 'loading' ? s.done : undefined)));
    },
    /** Entries held, across every loaded period. */
    entries() {
      let n = 0;
      for (const s of slots.values()) if (s.state === 'ready') n += s.period.list.size;
      return n;
    },
    /** Bytes the loaded periods hold in typed arrays. */
    bytes() {
      let n = 0;
      for (const s of slots.values()) if (s.state === 'ready') n += s.period.bytes();
      return n;
    },
  };
}
