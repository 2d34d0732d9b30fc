import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { newId } from '../../lib/tokens.js';
import { compareEntries } from '../ranking/order.js';
import type { RankIndex } from '../ranking/rank-index.js';
import { leaderboardErrors as E } from './errors.js';
import type { LeaderboardRow } from './leaderboards.table.js';
import { periodAt } from './periods.js';
import * as store from './store.js';

/** A score brought from another service: its own id (when it has a usable one), time and engine. */
export interface ImportedScore {
  id: string | null;
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
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids as another service gave them are kept when they look like ours (UUIDs); anything else gets a new one. */
export const usableScoreId = (id: unknown): string | null => (typeof id === 'string' && UUID.test(id) ? id : null);

type Row = store.NewEntry & { revision?: number };

/**
 * Bulk import of scores into one board, in one transaction under the board's `all` lock: each score
 * lands in the period its timestamp falls in, the board's save mode is applied as saves would
 * (per player and period: keep all, the best, the latest, or the sum), its size limit trims, and
 * the rank index then starts the board afresh (a new generation), as after a wipe.
 */
export function createScoreImport({ db, rankIndex, changed }: ImportDeps) {
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
      const before = await store.findLeaderboard(db, gameId, name);
      if (!before) throw E.notFound(name);
      return rankIndex.track([before.id], async () => {
        const done = await db.transaction().execute(async (trx) => {
          const board = await store.lockBoard(trx, gameId, name, 'all');
          if (!board) throw E.notFound(name);
          const rows = await withIds(trx, board, scores);
          const written =
            board.insert_option === 'keep'
              ? await insertAll(trx, bestOfEachPeriod(rows.fresh, board))
              : await saveOnePerPlayer(trx, board, rows);
          const trimmed =
            board.max_entries === null
              ? []
              : await store.trim(trx, { id: board.id, sort: board.sort, maxEntries: board.max_entries });
          // What the size limit pushed out right away was not imported after all.
          const pushedOut = trimmed.reduce((n, e) => n + (written.get(e.id) ?? 0), 0);
          const imported = [...written.values()].reduce((n, c) => n + c, 0) - pushedOut;
          const generation = await store.nextGeneration(trx, board.id);
          return { imported, generation, board };
        });
        await changed(gameId);
        await rankIndex.reset(done.board.id, done.generation);
        return { imported: done.imported, skipped: scores.length - done.imported };
      });
    },
  };
}

/**
 * Gives every score its row: the period of its timestamp and an id. An id already on this board
 * means the score was imported before (`already`); one used elsewhere, or twice in the file, is replaced.
 */
async function withIds(trx: Transaction<DB>, board: LeaderboardRow, scores: ImportedScore[]) {
  const given = scores.map((s) => s.id).filter((id): id is string => id !== null);
  const taken = await store.entryBoards(trx, given);
  const seen = new Set<string>();
  const fresh: Row[] = [];
  const already: Row[] = [];
  for (const s of scores) {
    const periodStart =
      board.time_based === 'na' ? 0 : periodAt(board.time_based, board.timezone ?? 'UTC', s.timestamp).start;
    const onThisBoard = s.id !== null && taken.get(s.id) === board.id;
    const keep = s.id !== null && !seen.has(s.id) && !taken.has(s.id);
    if (s.id !== null) seen.add(s.id);
    const row: Row = {
      id: keep || onThisBoard ? s.id! : newId(),
      leaderboard_id: board.id,
      period_start: periodStart,
      player_name: s.player_name,
      score: s.score,
      timestamp: s.timestamp,
      metadata: s.metadata,
      engine: s.engine,
    };
    (onThisBoard ? already : fresh).push(row);
  }
  return { fresh, already };
}

const CHUNK = 500;

/**
 * On a board that keeps `max_entries` per period, a file's score below the file's own best
 * `max_entries` of its period could only be trimmed again: it is not written at all, so a file of
 * 200,000 scores for a board of 10 costs 10 inserts, not 200,000 inserts and a trim.
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

async function insertAll(trx: Transaction<DB>, rows: Row[]) {
  await store.insertEntries(
    trx,
    rows.map((r) => ({ ...r, player_key: r.id })),
    CHUNK,
  );
  return new Map(rows.map((r) => [r.id, 1]));
}

/**
 * `highest`, `latest` and `accumulator` keep one entry per player and period. The file's scores of
 * a player and period are taken together: skipped whole when one of them is already on the board
 * (so a second run adds nothing), else reduced to one and saved against the stored entry, which
 * takes the imported score's id when the import replaces it.
 */
async function saveOnePerPlayer(trx: Transaction<DB>, board: LeaderboardRow, rows: { fresh: Row[]; already: Row[] }) {
  const key = (r: Pick<Row, 'period_start' | 'player_name'>) => `${r.period_start}\u0000${r.player_name}`;
  const done = new Set(rows.already.map(key));
  const groups = new Map<string, Row[]>();
  for (const r of rows.fresh) if (!done.has(key(r))) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  const stored = await store.playerEntriesOf(
    trx,
    board.id,
    [...new Set([...groups.values()].map((g) => g[0]!.player_name))],
    CHUNK,
  );
  const existing = new Map(stored.map((e) => [key(e), e]));
  const inserts: Row[] = [];
  // Entry id → how many of the file's scores it stands for (an accumulator sum stands for all of them).
  const written = new Map<string, number>();
  const byTime = (a: Row, b: Row) => a.timestamp - b.timestamp || (a.id < b.id ? -1 : 1);
  for (const [k, group] of groups) {
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
              score: group.reduce((n, r) => n + r.score, 0),
              metadata: [...group].sort(byTime).reduce<string | null>((m, r) => r.metadata ?? m, null),
            };
    const count = mode === 'accumulator' ? group.length : 1;
    const current = existing.get(k);
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
      await store.replaceEntry(trx, current.id, {
        id: candidate.id,
        score: mode === 'accumulator' ? current.score + candidate.score : candidate.score,
        timestamp: Math.max(candidate.timestamp, mode === 'accumulator' ? current.timestamp : 0),
        metadata: candidate.metadata ?? (mode === 'accumulator' ? current.metadata : null),
        engine: candidate.engine,
      });
    }
    written.set(candidate.id, count);
  }
  await store.insertEntries(
    trx,
    inserts.map((r) => ({ ...r, player_key: r.player_name })),
    CHUNK,
  );
  return written;
}
