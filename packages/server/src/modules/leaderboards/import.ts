import { clampScore } from '@howl/contract';
import type { Kysely, Transaction } from 'kysely';
import { againOnTakenKey } from '../../db/errors.js';
import type { DB } from '../../db/schema.js';
import { nameBasedScoreId, newScoreId } from '../../lib/tokens.js';
import { nextTurn } from '../../lib/turn.js';
import { compareEntries } from '../ranking/order.js';
import type { BoardPeriod, RankIndex } from '../ranking/rank-index.js';
import { leaderboardErrors as E } from './errors.js';
import type { LeaderboardRow, ScoreRow } from './leaderboards.table.js';
import { periodAt } from './periods.js';
import * as store from './store.js';

/** A score brought from another service: its own id (when it has a usable one), time and engine. */
export interface ImportedScore {
  id: string | null;
  /** Without a usable id: what the row holds as sent (id text, player, score, time, metadata), the same on every run. */
  row?: string;
  player_name: string;
  score: number;
  timestamp: number;
  /** Compact JSON text. */
  metadata: string | null;
  engine: 3 | 4 | null;
}

export interface ImportDeps {
  db: Kysely<DB>;
  rankIndex: RankIndex;
  /** Drops what is kept of the game's boards (a new generation); after the commit. */
  changed(gameId: string): Promise<void>;
  /** Hears how many scores an import wrote, once it has: a large one refreshes the table's statistics (`statisticsRefresher`). */
  imported(rows: number): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids as another service gave them are kept when they look like ours (UUIDs); anything else gets a new one. */
export const usableScoreId = (id: unknown): string | null => (typeof id === 'string' && UUID.test(id) ? id : null);

type Row = store.NewEntry & { revision?: number };

/**
 * Scores one import transaction writes at most. A big file is written in several transactions,
 * so other requests are answered between them (on SQLite a write holds every other request).
 */
export const IMPORT_ROWS_PER_TRANSACTION = 500;

/**
 * Bulk import of scores into one board. What to write is decided once for the whole file (the
 * period of each timestamp, which ids to keep, the file's own best of a board with a size limit);
 * then it is written in transactions of about IMPORT_ROWS_PER_TRANSACTION scores, each under the
 * board's `all` lock, where the save mode is applied as saves would (per player and period: keep
 * all, the best, the latest, or the sum) and the size limit trims. A player's scores of a period
 * are always in one transaction. The rank index hears of each transaction's rows after its commit,
 * as of any save. When the board's settings change or it is wiped meanwhile, the import stops;
 * running the file again completes it.
 */
export function createScoreImport({ db, rankIndex, changed, imported: wrote }: ImportDeps) {
  return {
    /** The names among these that are not boards of the game. */
    async missingBoards(gameId: string, names: string[]): Promise<string[]> {
      const boards = await store.listLeaderboards(db, gameId);
      const have = new Set(boards.map((b) => b.name));
      return names.filter((n) => !have.has(n));
    },

    /**
     * Answers how many scores now stand on the board (`imported`) and how many did not: already
     * there (same id on this board), or not kept by the save mode or the board's size.
     */
    async importScores(
      gameId: string,
      name: string,
      scores: ImportedScore[],
    ): Promise<{ imported: number; skipped: number }> {
      const board = await store.findLeaderboard(db, gameId, name);
      if (!board) throw E.notFound(name);
      return rankIndex.track([board.id], async () => {
        const rows = await withIds(db, board, scores);
        const batches =
          board.insert_option === 'keep'
            ? inBatches(bestOfEachPeriod(rows.fresh, board).map((r) => [r]))
            : inBatches(playerGroups(rows));
        // Entry id → how many of the file's scores it stands for (an accumulator sum stands for all of them).
        const written = new Map<string, number>();
        let pushedOut = 0;
        try {
          for (const batch of batches) {
            // Each batch is a write of its own to the index (other processes hear of it as it is done).
            const done = await rankIndex.track([board.id], async () => {
              const done = await againOnTakenKey(() =>
                db.transaction().execute(async (trx) => {
                  const held = await store.lockBoard(trx, gameId, name, 'all');
                  if (!held || held.id !== board.id) throw E.notFound(name);
                  // What was decided for the whole file holds only under the settings it was decided with.
                  if (held.generation !== board.generation) throw E.changedDuringImport(name);
                  const ready = await stillFree(trx, batch);
                  const result =
                    held.insert_option === 'keep'
                      ? await insertAll(trx, ready.flat())
                      : await saveOnePerPlayer(trx, held, ready);
                  const trimmed =
                    held.max_entries === null
                      ? []
                      : await store.trim(trx, { id: held.id, sort: held.sort, maxEntries: held.max_entries });
                  return { ...result, removed: [...result.removed, ...trimmed], trimmed };
                }),
              );
              await follow(rankIndex, board, done.saved, done.removed);
              return done;
            });
            for (const [id, count] of done.written) written.set(id, count);
            // What the size limit pushed out right away was not imported after all.
            for (const e of done.trimmed) {
              pushedOut += written.get(e.id) ?? 0;
              written.delete(e.id);
            }
            await nextTurn();
          }
        } finally {
          if (written.size > 0 || pushedOut > 0) await changed(gameId);
        }
        const imported = [...written.values()].reduce((n, c) => n + c, 0);
        await wrote(imported);
        return { imported, skipped: scores.length - imported };
      });
    },
  };
}

/** Tells the index what one committed transaction of an import changed, as a save's commit does. */
async function follow(
  rankIndex: RankIndex,
  board: LeaderboardRow,
  saved: ScoreRow[],
  removed: store.RemovedEntry[],
): Promise<void> {
  if (removed.length > 0) await rankIndex.removed(board.id, removed);
  // An entry the same transaction added and then trimmed away is only a removal to tell.
  const gone = new Set(removed.map((r) => r.id));
  const kept = saved.filter((entry) => !gone.has(entry.id));
  await Promise.all(kept.map((entry) => rankIndex.saved(periodOfEntry(board, entry.period_start), entry)));
}

function periodOfEntry(board: LeaderboardRow, periodStart: number): BoardPeriod {
  const at = { boardId: board.id, periodStart, sort: board.sort, generation: board.generation };
  if (board.time_based === 'na') return at;
  return { ...at, periodEnd: periodAt(board.time_based, board.timezone ?? 'UTC', periodStart).end };
}

/** Groups of rows (never split) gathered into batches of about IMPORT_ROWS_PER_TRANSACTION rows. */
function inBatches(groups: Row[][]): Row[][][] {
  const batches: Row[][][] = [];
  let batch: Row[][] = [];
  let size = 0;
  for (const g of groups) {
    batch.push(g);
    size += g.length;
    if (size >= IMPORT_ROWS_PER_TRANSACTION) {
      batches.push(batch);
      batch = [];
      size = 0;
    }
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * Ids kept from the file that some entry took since they were checked (a save with the same
 * client id) give way to new ones, as a taken id does in `withIds`.
 */
async function stillFree(trx: Transaction<DB>, batch: Row[][]): Promise<Row[][]> {
  const taken = await store.entryBoards(
    trx,
    batch.flatMap((g) => g.map((r) => r.id)),
  );
  if (taken.size === 0) return batch;
  return batch.map((g) => g.map((r) => (taken.has(r.id) ? { ...r, id: newScoreId() } : r)));
}

/** Where each of these ids stands (its board), a transaction's worth at a time so the event loop turns between. */
async function boardsOf(db: Kysely<DB>, ids: string[]): Promise<Map<string, string>> {
  const taken = new Map<string, string>();
  for (let i = 0; i < ids.length; i += IMPORT_ROWS_PER_TRANSACTION) {
    for (const [id, boardId] of await store.entryBoards(db, ids.slice(i, i + IMPORT_ROWS_PER_TRANSACTION))) {
      taken.set(id, boardId);
    }
    await nextTurn();
  }
  return taken;
}

/**
 * Gives every score its row: the period of its timestamp and an id. A score keeps its own id the
 * first time the file names it; a repeat of an id in the file, a score without one (known by what
 * its row holds), or an id another board or game holds takes a name-based one made from the board
 * and that, the same on every run. An id already on this board means the score was imported before
 * (`already`), so running the same file again adds nothing.
 */
async function withIds(db: Kysely<DB>, board: LeaderboardRow, scores: ImportedScore[]) {
  const times = new Map<string, number>();
  const asked = scores.map((s) => {
    // A score without a usable id is known by what its row holds, and the how-manyth such row it is.
    const own = s.id ?? (s.row === undefined ? null : `row ${s.row}`);
    if (own === null) return null;
    const n = (times.get(own) ?? 0) + 1;
    times.set(own, n);
    return s.id !== null && n === 1 ? s.id : nameBasedScoreId(`${board.id}\u0000${own}\u0000${n}`);
  });
  const moved = (id: string) => nameBasedScoreId(`${board.id}\u0000${id}`);
  const wanted = asked.filter((id): id is string => id !== null);
  const taken = await boardsOf(db, [...new Set([...wanted, ...wanted.map(moved)])]);
  const literal = new Set(wanted);
  const ids = asked.map((id) => {
    if (id === null || taken.get(id) === board.id) return id;
    // Imported before under the id made for it (its own was elsewhere then), or elsewhere now.
    const made = moved(id);
    if (taken.get(made) === board.id) return made;
    if (!taken.has(id)) return id;
    // One the file itself names for another score cannot be made twice.
    return literal.has(made) ? null : made;
  });
  const fresh: Row[] = [];
  const already: Row[] = [];
  scores.forEach((s, i) => {
    const periodStart =
      board.time_based === 'na' ? 0 : periodAt(board.time_based, board.timezone ?? 'UTC', s.timestamp).start;
    const id = ids[i]!;
    const onThisBoard = id !== null && taken.get(id) === board.id;
    const row: Row = {
      id: id === null || (taken.has(id) && !onThisBoard) ? newScoreId() : id,
      leaderboard_id: board.id,
      period_start: periodStart,
      player_name: s.player_name,
      score: s.score,
      timestamp: s.timestamp,
      metadata: s.metadata,
      engine: s.engine,
    };
    (onThisBoard ? already : fresh).push(row);
  });
  return { fresh, already };
}

const CHUNK = 500;

/**
 * On a board that keeps `max_entries` per period, a file's score below the file's own best
 * `max_entries` of its period could only be trimmed again: it is not written at all, so a file of
 * 50,000 scores for a board of 10 costs 10 inserts, not 50,000 inserts and a trim.
 */
export function bestOfEachPeriod(rows: Row[], board: Pick<LeaderboardRow, 'max_entries' | 'sort'>): Row[] {
  const max = board.max_entries;
  if (max === null) return rows;
  const periods = new Map<number, Row[]>();
  for (const r of rows) {
    const period = periods.get(r.period_start);
    if (period) period.push(r);
    else periods.set(r.period_start, [r]);
  }
  return [...periods.values()].flatMap((period) =>
    period.length <= max ? period : period.sort((a, b) => compareEntries(a, b, board.sort)).slice(0, max),
  );
}

/** What one transaction of an import wrote: entry id → scores of the file it stands for, and the rows for the index. */
interface Written {
  written: Map<string, number>;
  saved: ScoreRow[];
  removed: store.RemovedEntry[];
}

async function insertAll(trx: Transaction<DB>, rows: Row[]): Promise<Written> {
  const entries = rows.map((r) => ({ ...r, player_key: r.id }));
  await store.insertEntries(trx, entries, CHUNK);
  return {
    written: new Map(rows.map((r) => [r.id, 1])),
    saved: entries.map((e) => ({ ...e, revision: 0 })),
    removed: [],
  };
}

const playerKey = (r: Pick<Row, 'period_start' | 'player_name'>) => `${r.period_start}\u0000${r.player_name}`;

/**
 * On `highest`, `latest` and `accumulator` boards, the file's scores of each player and period, as
 * one group: skipped whole when one of them is already on the board (so a second run adds nothing).
 */
function playerGroups(rows: { fresh: Row[]; already: Row[] }): Row[][] {
  const done = new Set(rows.already.map(playerKey));
  const groups = new Map<string, Row[]>();
  for (const r of rows.fresh) {
    const k = playerKey(r);
    if (done.has(k)) continue;
    const group = groups.get(k);
    if (group) group.push(r);
    else groups.set(k, [r]);
  }
  return [...groups.values()];
}

/**
 * `highest`, `latest` and `accumulator` keep one entry per player and period. Each group of the
 * file is reduced to one score and saved against the stored entry, which takes the imported
 * score's id when the import replaces it.
 */
async function saveOnePerPlayer(trx: Transaction<DB>, board: LeaderboardRow, groups: Row[][]): Promise<Written> {
  const stored = await store.playerEntriesOf(trx, board.id, [...new Set(groups.map((g) => g[0]!.player_name))], CHUNK);
  const existing = new Map(stored.map((e) => [playerKey(e), e]));
  const inserts: Row[] = [];
  const result: Written = { written: new Map(), saved: [], removed: [] };
  const byTime = (a: Row, b: Row) => a.timestamp - b.timestamp || (a.id < b.id ? -1 : 1);
  for (const group of groups) {
    const latest = group.reduce((a, b) => (byTime(a, b) >= 0 ? a : b));
    const best = group.reduce((a, b) => (compareEntries(a, b, board.sort) <= 0 ? a : b));
    const mode = board.insert_option;
    const candidate =
      mode === 'highest'
        ? best
        : mode === 'latest'
          ? latest
          : {
              ...latest,
              score: clampScore(group.reduce((n, r) => n + r.score, 0)),
              metadata: [...group].sort(byTime).reduce<string | null>((m, r) => r.metadata ?? m, null),
            };
    const count = mode === 'accumulator' ? group.length : 1;
    const current = existing.get(playerKey(candidate));
    if (!current) {
      inserts.push(candidate);
    } else {
      const replaces =
        mode === 'highest'
          ? board.sort === 'desc'
            ? candidate.score > current.score
            : candidate.score < current.score
          : mode === 'latest'
            ? candidate.timestamp > current.timestamp
            : true;
      if (!replaces) continue;
      const next = {
        id: candidate.id,
        score: mode === 'accumulator' ? clampScore(current.score + candidate.score) : candidate.score,
        timestamp: Math.max(candidate.timestamp, mode === 'accumulator' ? current.timestamp : 0),
        metadata: candidate.metadata ?? (mode === 'accumulator' ? current.metadata : null),
        engine: candidate.engine,
      };
      await store.replaceEntry(trx, current.id, next);
      // The entry's id changes: for an index, the old entry went and a new one came.
      result.removed.push(current);
      result.saved.push({ ...current, ...next, revision: current.revision + 1 });
    }
    result.written.set(candidate.id, count);
  }
  const entries = inserts.map((r) => ({ ...r, player_key: r.player_name }));
  await store.insertEntries(trx, entries, CHUNK);
  result.saved.push(...entries.map((e) => ({ ...e, revision: 0 })));
  return result;
}
