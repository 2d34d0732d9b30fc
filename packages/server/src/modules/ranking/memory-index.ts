import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ScoreRow } from '../leaderboards/leaderboards.table.js';
import { compareEntries, type OrderKey } from '../leaderboards/order.js';
import { OrderStatisticList } from './order-statistic-list.js';
import { sqlRankIndex, type BoardPeriod, type IndexedEntry, type RankIndex } from './rank-index.js';

interface Period {
  sort: BoardPeriod['sort'];
  list: OrderStatisticList<IndexedEntry>;
  byId: Map<string, IndexedEntry>;
}

type Slot =
  | { state: 'loading'; sort: BoardPeriod['sort']; pending: Array<(p: Period) => void>; done: Promise<void> }
  | { state: 'ready'; period: Period };

/**
 * The in-process rank index: one order-statistic list per board period, loaded from the database
 * the first time the period is asked about (SQL answers until it is ready) and kept in step by the
 * service's write notifications. Only for a single server process: another process's writes would
 * never reach it (with REDIS_URL set, use the Redis index).
 */
export function memoryRankIndex(db: Kysely<DB>): RankIndex & { settled(): Promise<void>; entries(): number } {
  const sql = sqlRankIndex(db);
  const slots = new Map<string, Slot>();
  const slotKey = (boardId: string, periodStart: number) => `${boardId}\u0000${periodStart}`;

  /** The ready period, or undefined while it loads (the first call starts the load). */
  function ready(board: BoardPeriod): Period | undefined {
    const key = slotKey(board.boardId, board.periodStart);
    const slot = slots.get(key);
    if (slot?.state === 'ready' && slot.period.sort === board.sort) return slot.period;
    if (!slot || (slot.state === 'ready' && slot.period.sort !== board.sort)) load(key, board);
    return undefined;
  }

  function load(key: string, board: BoardPeriod): void {
    const pending: Array<(p: Period) => void> = [];
    const query = db
      .selectFrom('scores')
      .select(['id', 'score', 'timestamp', 'player_name', 'revision'])
      .where('leaderboard_id', '=', board.boardId)
      .where('period_start', '=', board.periodStart);
    const done = query
      .execute()
      .then((rows) => {
        const current = slots.get(key);
        if (current?.state !== 'loading' || current.done !== done) return; // reset while loading
        const compare = (a: OrderKey, b: OrderKey) => compareEntries(a, b, board.sort);
        const entries: IndexedEntry[] = rows.map((r) => ({
          id: r.id,
          score: r.score,
          timestamp: r.timestamp,
          player_name: r.player_name,
          revision: r.revision,
        }));
        // Sorted here: the board's mixed directions (score desc, timestamp asc) defeat the database's index, and its sort measured slower.
        entries.sort(compare);
        const period: Period = {
          sort: board.sort,
          list: OrderStatisticList.fromSorted(entries, compare),
          byId: new Map(entries.map((e) => [e.id, e])),
        };
        // Writes that were notified while the rows were read: each is idempotent, so replaying one the rows already hold is harmless.
        for (const apply of pending) apply(period);
        slots.set(key, { state: 'ready', period });
      })
      .catch(() => {
        // Failed loads are retried by the next read; SQL keeps answering.
        if (slots.get(key)?.state === 'loading') slots.delete(key);
      });
    slots.set(key, { state: 'loading', sort: board.sort, pending, done });
  }

  /** Applies a change now, or after the load when the period is loading; a period not loaded needs nothing. */
  function change(boardId: string, periodStart: number, apply: (p: Period) => void): void {
    const slot = slots.get(slotKey(boardId, periodStart));
    if (slot?.state === 'ready') apply(slot.period);
    else if (slot?.state === 'loading') slot.pending.push(apply);
  }

  async function hydrate(entries: IndexedEntry[]): Promise<ScoreRow[]> {
    if (entries.length === 0) return [];
    const rows = await db
      .selectFrom('scores')
      .selectAll()
      .where(
        'id',
        'in',
        entries.map((e) => e.id),
      )
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    // An entry deleted in between is skipped: the answer shows what exists.
    return entries.map((e) => byId.get(e.id)).filter((r): r is ScoreRow => r !== undefined);
  }

  const asEntry = (key: OrderKey): IndexedEntry => ({ ...key, revision: 0 });

  return {
    async page(board, after, limit) {
      const p = ready(board);
      if (!p) return sql.page(board, after, limit);
      const from = after ? p.list.upperBound(asEntry(after)) : 0;
      return hydrate(p.list.range(from, limit));
    },
    async above(board, key, limit) {
      const p = ready(board);
      if (!p) return sql.above(board, key, limit);
      return hydrate(p.list.range(p.list.lowerBound(asEntry(key)) - 1, limit, -1));
    },
    async countAbove(board, key) {
      const p = ready(board);
      return p ? p.list.lowerBound(asEntry(key)) : sql.countAbove(board, key);
    },
    async overflow(board, keep) {
      const p = ready(board);
      if (!p) return sql.overflow(board, keep);
      return p.list.range(keep, Math.max(0, p.list.size - keep)).map((e) => e.id);
    },
    async saved(board, entry) {
      change(board.boardId, board.periodStart, (p) => {
        const old = p.byId.get(entry.id);
        if (old && old.revision >= entry.revision) return; // an older notification arriving late
        if (old) p.list.remove(old);
        const copy: IndexedEntry = {
          id: entry.id,
          score: entry.score,
          timestamp: entry.timestamp,
          player_name: entry.player_name,
          revision: entry.revision,
        };
        p.list.insert(copy);
        p.byId.set(copy.id, copy);
      });
    },
    async removed(boardId, entries) {
      for (const e of entries) {
        change(boardId, e.period_start, (p) => {
          const old = p.byId.get(e.id);
          if (!old) return;
          p.list.remove(old);
          p.byId.delete(e.id);
        });
      }
    },
    async reset(boardId) {
      for (const key of slots.keys()) if (key.startsWith(`${boardId}\u0000`)) slots.delete(key);
    },
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
  };
}
