import { EVERY_KEY, type Caches } from '../../lib/cache.js';
import { RecentRemovals } from './recent-removals.js';
import { compareEntries, type OrderKey } from './order.js';
import {
  periodEnded,
  shownRow,
  type BoardPeriod,
  type IndexedEntry,
  type RankIndex,
  type ShownRow,
} from './rank-index.js';

export interface TopRowsOptions {
  /** Rows kept per board period: the largest page answered without a query is one fewer (`max=100` asks 101). */
  rows?: number;
  /** Board periods kept at once; the least recently read go first. */
  boards?: number;
  /** The time, for periods that have ended and old removals (tests move it). */
  now?: () => number;
  /**
   * For an index other processes write to (Redis): through these, each write or reset tells them
   * the board changed, and they drop its rows; while their notices may not arrive, nothing is kept.
   */
  caches?: Caches;
  /** What shared first pages may hold at once, estimated in bytes (SHARED_BYTES; tests make it small). */
  sharedBytes?: number;
}

/** The best rows of one board period, best first: exactly the period's first `rows.length`, or all of it when `complete`. */
interface Top {
  sort: BoardPeriod['sort'];
  generation: number;
  periodEnd: number | undefined;
  rows: ShownRow[];
  complete: boolean;
  /** First pages handed out since the rows last changed, by length: the same frozen array until then. */
  pages?: Map<number, readonly ShownRow[]>;
  /** What `pages` count against SHARED_BYTES. */
  sharedBytes?: number;
}

/** Page sizes shared per board period at once (a game asks one or two). */
const SHARED_PAGE_SIZES = 4;
/**
 * What shared first pages may hold at once, across every board: each keeps the answer made of it
 * and that answer's text alive (readers keep them beside it), so what clients can pin is bounded.
 */
const SHARED_BYTES = 32 * 2 ** 20;
/** A row's share of that, estimated: the row, its answer's entry and text, and its metadata thrice (text, parsed, written). */
const sharedBytesOf = (rows: readonly ShownRow[]) =>
  rows.reduce((n, row) => n + 512 + 3 * (row.metadata?.length ?? 0), 0);

/** The notice's entry is the whole row the write saved (writes.ts passes it); anything less cannot be shown. */
function isRow(entry: IndexedEntry): entry is IndexedEntry & ShownRow {
  return 'leaderboard_id' in entry && 'period_start' in entry && 'metadata' in entry && 'engine' in entry;
}

/**
 * A rank index that keeps each board period's top rows as whole rows, so that a top page, a
 * position within them and an around among them run no query. It follows the notices by the
 * index's rules (newer revisions only, never after a removal, never under an older generation;
 * a reset drops the board) and fills from `index` when a read finds too few rows. A fill is kept
 * only when no write to the board was under way while it ran (`track` spans a write from before
 * its transaction to its notices), so what it read is what the notices have brought the index to.
 * Another process's writes reach the rows only through `caches`: its notice drops the board's rows
 * here, so they follow its writes within one delivery of a Redis message, as kept games do.
 */
export function withTopRows<I extends RankIndex>(index: I, options: TopRowsOptions = {}): I {
  const size = options.rows ?? 101;
  const maxBoards = options.boards ?? 1000;
  const now = options.now ?? Date.now;
  /** Least recently read first. */
  const tops = new Map<string, Top>();
  const sharedLimit = options.sharedBytes ?? SHARED_BYTES;
  let sharedBytes = 0;
  /** The rows changed or the top is no longer kept: the first pages handed out of it are no longer shared. */
  function changed(top: Top): void {
    sharedBytes -= top.sharedBytes ?? 0;
    top.sharedBytes = 0;
    top.pages = undefined;
  }
  const topKey = (boardId: string, periodStart: number) => `${boardId}\u0000${periodStart}`;
  /** Each board's keys in `tops`, so a board is forgotten without a walk of every board (a notice per write). */
  const keysOf = new Map<string, Set<string>>();
  const boardOf = (key: string) => key.slice(0, key.indexOf('\u0000'));
  function keep(key: string, top: Top): void {
    const before = tops.get(key);
    if (before && before !== top) changed(before);
    tops.delete(key);
    tops.set(key, top);
    const boardId = boardOf(key);
    let keys = keysOf.get(boardId);
    if (!keys) keysOf.set(boardId, (keys = new Set()));
    keys.add(key);
    if (tops.size > maxBoards) drop(tops.keys().next().value!);
  }
  function drop(key: string): void {
    const top = tops.get(key);
    if (!top) return;
    changed(top);
    tops.delete(key);
    const boardId = boardOf(key);
    const keys = keysOf.get(boardId);
    keys?.delete(key);
    if (keys?.size === 0) keysOf.delete(boardId);
  }
  const generations = new Map<string, number>();
  const removedIds = new RecentRemovals();
  /** Per board: writes under way, and a count of every write start, end and notice (a fill compares it). */
  const writing = new Map<string, number>();
  const changes = new Map<string, number>();
  const touch = (boardId: string) => changes.set(boardId, (changes.get(boardId) ?? 0) + 1);
  /** Counts every loss of other processes' notices: a fill running across one is not kept. */
  let losses = 0;
  const others = options.caches?.notices('top-rows', {
    changed(boardId) {
      touch(boardId);
      forget(boardId);
    },
    lost() {
      losses++;
      for (const top of tops.values()) changed(top);
      tops.clear();
      keysOf.clear();
    },
  });
  const listening = () => others?.listening() ?? true;
  /** Tells the other processes, after a write or reset has committed. */
  const tell = async (boardIds: Iterable<string>) => {
    if (others) for (const id of new Set(boardIds)) await others.send(id);
  };
  /** Runs an index's notice; one that fails leaves what is kept of the board unknown, so it goes. */
  const following = async (boardId: string, notice: () => Promise<void>) => {
    try {
      await notice();
    } catch (err) {
      touch(boardId);
      forget(boardId);
      throw err;
    }
  };

  function forget(boardId: string): void {
    for (const key of [...(keysOf.get(boardId) ?? [])]) drop(key);
    keysOf.delete(boardId);
  }

  /** Follows the newest generation seen: false when `generation` is older (a read or notice from before a reset). */
  function follow(boardId: string, generation: number): boolean {
    const known = generations.get(boardId);
    if (known !== undefined && generation < known) return false;
    if (known !== undefined && generation > known) forget(boardId);
    generations.set(boardId, generation);
    return true;
  }

  /** The kept rows of a period the read may use, most recently read from now on. */
  function kept(board: BoardPeriod): Top | undefined {
    const key = topKey(board.boardId, board.periodStart);
    const top = tops.get(key);
    // A read from before a reset leaves the newer rows alone, and answers from the index.
    if (!top || board.generation < top.generation) return undefined;
    // The board moved on (new settings, a wipe) or the period ended: the rows go.
    if (top.sort !== board.sort || top.generation !== board.generation || ended(top)) {
      drop(key);
      return undefined;
    }
    // Most recently read last; below half full nothing is evicted soon, so the hot path skips the move.
    if (tops.size > maxBoards / 2) {
      tops.delete(key);
      tops.set(key, top);
    }
    return top;
  }

  const ended = (top: { periodEnd?: number | undefined }) => periodEnded(top, now());

  /** Reads the period's top from the index, and keeps it when nothing changed the board meanwhile. */
  async function fill(board: BoardPeriod): Promise<Top | undefined> {
    if (!follow(board.boardId, board.generation) || ended(board)) return undefined;
    const before = changes.get(board.boardId) ?? 0;
    const lossesBefore = losses;
    const quiet = (writing.get(board.boardId) ?? 0) === 0 && listening();
    // One more than kept tells whether the kept rows are the whole period.
    const rows = await index.page(board, undefined, size + 1);
    const top: Top = {
      sort: board.sort,
      generation: board.generation,
      periodEnd: board.periodEnd,
      rows: rows.slice(0, size),
      complete: rows.length <= size,
    };
    const unchanged = (changes.get(board.boardId) ?? 0) === before && losses === lossesBefore && listening();
    if (quiet && unchanged && generations.get(board.boardId) === board.generation) {
      keep(topKey(board.boardId, board.periodStart), top);
    }
    return top;
  }

  /** The first index in `rows` of an entry ranking after `key` (`orAt`: at or after it). */
  function bound(top: Top, key: OrderKey, orAt: boolean): number {
    let lo = 0;
    let hi = top.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = compareEntries(top.rows[mid]!, key, top.sort);
      if (c < 0 || (c === 0 && !orAt)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Where `key` would stand among the kept rows, when every row above it is kept. */
  function within(top: Top | undefined, key: OrderKey): Top | undefined {
    return top && (top.complete || bound(top, key, true) < top.rows.length) ? top : undefined;
  }

  function save(board: BoardPeriod, entry: IndexedEntry): void {
    const top = tops.get(topKey(board.boardId, board.periodStart));
    if (!top || top.generation !== board.generation) return;
    const at = top.rows.findIndex((r) => r.id === entry.id);
    if (at >= 0) {
      if (top.rows[at]!.revision > entry.revision) return; // an older notice arriving late
      top.rows.splice(at, 1);
      changed(top);
    }
    const last = top.rows.at(-1);
    const enters = top.complete || (last !== undefined && compareEntries(entry, last, top.sort) < 0);
    if (!enters) return; // ranks below the kept rows: they stay the period's first ones
    if (!isRow(entry)) {
      drop(topKey(board.boardId, board.periodStart));
      return;
    }
    top.rows.splice(bound(top, entry, false), 0, shownRow(entry));
    changed(top);
    if (top.rows.length > size) {
      top.rows.pop();
      top.complete = false;
    }
  }

  return {
    ...index,
    async page(board, after, limit) {
      if (limit > size) return index.page(board, after, limit);
      const answers = (top: Top | undefined) => {
        const from = top && after ? bound(top, after, false) : 0;
        if (!top || (!top.complete && from + limit > top.rows.length)) return undefined;
        if (after) return top.rows.slice(from, from + limit);
        // Until the rows change, a first page is the same frozen array: its readers may keep what they made of it.
        const shared = top.pages?.get(limit);
        if (shared) return shared;
        const page = top.rows.slice(0, limit);
        // Only of kept rows (a fill not kept is never read again), and within the bounds above.
        const bytes = sharedBytesOf(page);
        const pages = (top.pages ??= new Map());
        if (pages.size >= SHARED_PAGE_SIZES || sharedBytes + bytes > sharedLimit) return page;
        if (tops.get(topKey(board.boardId, board.periodStart)) !== top) return page;
        pages.set(limit, Object.freeze(page));
        top.sharedBytes = (top.sharedBytes ?? 0) + bytes;
        sharedBytes += bytes;
        return page;
      };
      // A top page the kept rows cannot answer (none yet, or too few left after removals) refills them.
      return (
        answers(kept(board)) ?? (after ? undefined : answers(await fill(board))) ?? index.page(board, after, limit)
      );
    },
    async above(board, key, limit) {
      const top = within(kept(board), key);
      if (!top) return index.above(board, key, limit);
      const to = bound(top, key, true);
      return top.rows.slice(Math.max(0, to - limit), to).reverse();
    },
    async countAbove(board, key) {
      const top = within(kept(board), key);
      return top ? bound(top, key, true) : index.countAbove(board, key);
    },
    async around(board, key, count) {
      const top = within(kept(board), key);
      const from = top ? bound(top, key, false) : 0;
      if (!top || (!top.complete && from + count > top.rows.length)) return index.around(board, key, count);
      const to = bound(top, key, true);
      return {
        countAbove: to,
        above: top.rows.slice(Math.max(0, to - count), to).reverse(),
        below: top.rows.slice(from, from + count),
      };
    },
    keyOf: (board, id) => index.keyOf(board, id),
    async saved(board, entry) {
      await following(board.boardId, () => index.saved(board, entry));
      touch(board.boardId);
      removedIds.forgetBefore(now());
      if (removedIds.has(entry.id)) {
        // A late notice, or an id a client chose saved again: the index below has told which, so the top is read from it afresh.
        forget(board.boardId);
        return;
      }
      if (!follow(board.boardId, board.generation)) return;
      save(board, entry);
    },
    async removed(boardId, entries) {
      await following(boardId, () => index.removed(boardId, entries));
      touch(boardId);
      const at = now();
      removedIds.forgetBefore(at);
      for (const e of entries) {
        removedIds.add(e.id, at);
        const top = tops.get(topKey(boardId, e.period_start));
        const gone = top?.rows.findIndex((r) => r.id === e.id) ?? -1;
        if (gone >= 0) {
          top!.rows.splice(gone, 1);
          changed(top!);
        }
      }
    },
    async reset(boardId, generation) {
      try {
        await index.reset(boardId, generation);
      } finally {
        touch(boardId);
        forget(boardId);
        if (generation === null) generations.delete(boardId);
        else generations.set(boardId, Math.max(generation, generations.get(boardId) ?? generation));
        await tell([boardId]);
      }
    },
    async reconcile() {
      const interrupted = await index.reconcile();
      // A process stopped between a write's commit and its notice: which boards, only the index knew.
      if (interrupted > 0) await others?.send(EVERY_KEY);
      return interrupted;
    },
    async track(boardIds, run) {
      for (const id of boardIds) {
        writing.set(id, (writing.get(id) ?? 0) + 1);
        touch(id);
      }
      try {
        return await index.track(boardIds, run);
      } finally {
        for (const id of boardIds) {
          const left = (writing.get(id) ?? 1) - 1;
          if (left === 0) writing.delete(id);
          else writing.set(id, left);
          touch(id);
        }
        // Before the write answers: the notice is on its way to the other processes before the player hears back.
        await tell(boardIds);
      }
    },
  };
}
