import type { CreateLeaderboardBody, Leaderboard, UpdateLeaderboardBody } from '@howl/contract';
import type { Kysely, Transaction } from 'kysely';
import { statisticsRefresher } from '../../db/dialect-sql.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { DB } from '../../db/schema.js';
import { noCaches, type Caches } from '../../lib/cache.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/tokens.js';
import { leaderboardErrors as E, MAX_LEADERBOARDS_PER_GAME } from './errors.js';
import type { LeaderboardRow } from './leaderboards.table.js';
import type { OrderKey } from '../ranking/order.js';
import { isValidTimeZone, periodAt, type Period } from './periods.js';
import type { BoardPeriod, RankIndex } from '../ranking/rank-index.js';
import { toLeaderboard } from './format.js';
import * as store from './store.js';
import { createScoreImport } from './import.js';
import { createScoreWrites } from './writes.js';
import { createScoreReads, type Resolved } from './reads.js';
import { gameErrors } from '../games/errors.js';

export const DASHBOARD_PAGE = 50;

export interface LeaderboardsDeps {
  db: Kysely<DB>;
  clock: Clock;
  rankIndex: RankIndex;
  /** Where each game's boards are kept between calls; without, every call reads the database. */
  caches?: Caches;
  /** Hears a failure of work done beside the requests (gathering the planner's statistics). */
  onBackgroundError?: (err: unknown) => void;
}

/** Leaderboards and their scores: configuration, saving by mode, and every ranked query. */
export function createLeaderboards({
  db,
  clock,
  rankIndex,
  caches = noCaches,
  onBackgroundError = () => {},
}: LeaderboardsDeps) {
  // Game id → its boards by name (at most MAX_LEADERBOARDS_PER_GAME), read by every game call. Every
  // change to a board (create, settings, wipe, import, delete, the game's delete) drops the game's
  // entry once it has committed. A write never trusts what is kept: it re-reads its board under the
  // board's lock and starts again when the id or generation differ (writes.ts).
  const kept = caches.cache<Map<string, LeaderboardRow>>('leaderboards');
  const boardsOf = async (gameId: string) =>
    (await kept.get(gameId, async () => new Map((await store.listLeaderboards(db, gameId)).map((b) => [b.name, b]))))!;
  const changed = (gameId: string) => kept.invalidate(gameId);

  async function mustFind(gameId: string, name: string): Promise<LeaderboardRow> {
    const board = (await boardsOf(gameId)).get(name);
    if (!board) throw E.notFound(name);
    return board;
  }

  /** The board period `offset` periods back (0: current), at the clock's now. */
  async function resolve(gameId: string, name: string, offset = 0): Promise<Resolved> {
    const board = await mustFind(gameId, name);
    if (offset !== 0 && board.time_based === 'na') throw E.noPeriods();
    const period = periodOf(board, clock.now(), offset);
    return { board, at: boardPeriod(board, period), period };
  }

  /** 1-based position of an entry, or null when it is past the board's size. */
  async function positionOf(board: LeaderboardRow, at: BoardPeriod, key: OrderKey): Promise<number | null> {
    const position = (await rankIndex.countAbove(at, key)) + 1;
    return board.max_entries !== null && position > board.max_entries ? null : position;
  }

  const statistics = statisticsRefresher(db, 'scores', onBackgroundError);
  const writes = createScoreWrites({
    db,
    clock,
    rankIndex,
    resolve,
    currentPeriod: (board) => boardPeriod(board, periodOf(board, clock.now())),
    positionOf,
    stale: (gameId) => kept.delete(gameId),
    changed,
    added: statistics.added,
  });
  const reads = createScoreReads({ db, rankIndex, resolve, positionOf });

  return {
    /**
     * Asks once about every board's current period, so an index loads now, not on a player's first
     * call: a board at a time, each count waiting for its load (a board asked about meanwhile loads at once).
     */
    async warmUp(): Promise<number> {
      // First, boards a stopped process was writing to when it stopped: their index may lag the database.
      await rankIndex.reconcile();
      const boards = await db.selectFrom('leaderboards').selectAll().execute();
      for (const board of boards) {
        await rankIndex.countAbove(boardPeriod(board, periodOf(board, clock.now())), {
          score: 0,
          timestamp: 0,
          player_name: '',
          id: '',
        });
      }
      return boards.length;
    },

    /**
     * The game is being deleted: its boards and their scores go in its transaction, and once that
     * has committed the rank index lets the boards go.
     */
    async removeGame(trx: Transaction<DB>, gameId: string): Promise<() => Promise<void>> {
      const boardIds = await store.deleteGameBoards(trx, gameId);
      return async () => {
        await changed(gameId);
        for (const id of boardIds) await rankIndex.reset(id, null);
      };
    },

    /** Writes a game's default board `main` (keep, no reset, 10 entries); called as the game is created. */
    async createDefault(trx: Kysely<DB>, gameId: string, now: number): Promise<void> {
      await store.insertLeaderboard(trx, { ...defaults('main'), id: newId(), game_id: gameId, created_at: now });
    },

    /** Every board with what it shows now: the entries of its current period and the engines they came from. */
    async list(gameId: string) {
      const boards = await store.listLeaderboards(db, gameId);
      const now = clock.now();
      const stats = await store.periodStats(
        db,
        boards.map((b) => ({ boardId: b.id, periodStart: periodOf(b, now)?.start ?? 0 })),
      );
      return boards.map((b) => {
        const mine = stats.filter((s) => s.leaderboard_id === b.id);
        const engines = new Set(mine.map((s) => s.engine));
        const engine = engines.has(3) && engines.has(4) ? 'both' : engines.has(4) ? '4' : engines.has(3) ? '3' : '-';
        const count = mine.reduce((n, s) => n + Number(s.n), 0);
        return {
          ...toLeaderboard(b),
          engine: engine as '3' | '4' | 'both' | '-',
          entry_count: b.max_entries === null ? count : Math.min(count, b.max_entries),
        };
      });
    },

    /** One board's settings; 404 LeaderboardNotFound when the game has no such board. */
    async settings(gameId: string, name: string): Promise<Leaderboard> {
      return toLeaderboard(await mustFind(gameId, name));
    },

    async create(gameId: string, body: CreateLeaderboardBody): Promise<Leaderboard> {
      const timezone = checkTimezone(body.time_based, body.timezone ?? null);
      const row: LeaderboardRow = {
        id: newId(),
        game_id: gameId,
        name: body.name,
        display_name: body.display_name || body.name,
        insert_option: body.insert_option,
        time_based: body.time_based,
        timezone,
        max_entries: body.max_entries,
        sort: body.sort,
        created_at: clock.now(),
        generation: 0,
      };
      try {
        await db.transaction().execute(async (trx) => {
          // Counted and created one at a time per game, so parallel creates cannot pass the limit.
          if (!(await store.lockGameBoards(trx, gameId))) throw gameErrors.notFound();
          if (await store.findLeaderboard(trx, gameId, body.name)) throw E.exists(body.name);
          if ((await store.countLeaderboards(trx, gameId)) >= MAX_LEADERBOARDS_PER_GAME) throw E.limitReached();
          await store.insertLeaderboard(trx, row);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw E.exists(body.name);
        throw err;
      }
      await changed(gameId);
      return toLeaderboard(row);
    },

    /**
     * Changes a board's settings (its name stays). A change that moves ranks (save mode, order,
     * size, periods) converts and trims the entries in the same transaction and starts a new
     * generation, so the rank index starts afresh; see docs/leaderboards.md.
     */
    async update(gameId: string, name: string, body: UpdateLeaderboardBody): Promise<Leaderboard> {
      // Read from the database, not what is kept: the generation compared below must be the stored one.
      const before = await store.findLeaderboard(db, gameId, name);
      if (!before) throw E.notFound(name);
      const next = await rankIndex.track([before.id], () =>
        db.transaction().execute(async (trx) => {
          const board = await store.lockBoard(trx, gameId, name, 'all');
          if (!board) throw E.notFound(name);
          const next: LeaderboardRow = {
            ...board,
            ...(body.display_name !== undefined ? { display_name: body.display_name || board.name } : {}),
            ...(body.insert_option !== undefined ? { insert_option: body.insert_option } : {}),
            ...(body.time_based !== undefined ? { time_based: body.time_based } : {}),
            ...(body.timezone !== undefined ? { timezone: body.timezone } : {}),
            ...(body.max_entries !== undefined ? { max_entries: body.max_entries } : {}),
            ...(body.sort !== undefined ? { sort: body.sort } : {}),
          };
          next.timezone = checkTimezone(next.time_based, next.timezone);
          const movesRanks = (['insert_option', 'time_based', 'timezone', 'max_entries', 'sort'] as const).some(
            (k) => next[k] !== board[k],
          );
          // The board's row is locked: its generation moves on here. One update of the row, not two:
          // PostgreSQL checks the game's key again when a row this transaction wrote is updated,
          // which waits on a delete of the game that waits on this board (a deadlock).
          if (movesRanks) next.generation = board.generation + 1;
          const { display_name, insert_option, time_based, timezone, max_entries, sort, generation } = next;
          await store.updateLeaderboard(trx, board.id, {
            display_name,
            insert_option,
            time_based,
            timezone,
            max_entries,
            sort,
            generation,
          });
          if (!movesRanks) return next;
          await store.convertEntries(trx, { id: board.id, sort }, board.insert_option, insert_option);
          if (max_entries !== null) await store.trim(trx, { id: board.id, sort, maxEntries: max_entries });
          return next;
        }),
      );
      await changed(gameId);
      if (next.generation !== before.generation) await rankIndex.reset(next.id, next.generation);
      return toLeaderboard(next);
    },

    async remove(gameId: string, name: string): Promise<void> {
      const board = await db.transaction().execute(async (trx) => {
        const held = await store.lockBoard(trx, gameId, name, 'all');
        if (!held) throw E.notFound(name);
        await store.deleteLeaderboard(trx, held.id);
        return held;
      });
      await changed(gameId);
      await rankIndex.reset(board.id, null);
    },

    ...reads,
    ...writes,
    ...createScoreImport({ db, rankIndex, changed, imported: statistics.imported }),
  };
}

export type Leaderboards = ReturnType<typeof createLeaderboards>;

/** The period of the board `offset` periods before the one holding `now`; null on boards that never reset. */
function periodOf(board: LeaderboardRow, now: number, offset = 0): Period | null {
  return board.time_based === 'na' ? null : periodAt(board.time_based, board.timezone ?? 'UTC', now, offset);
}

function boardPeriod(board: LeaderboardRow, period: Period | null): BoardPeriod {
  const at = { boardId: board.id, periodStart: period?.start ?? 0, sort: board.sort, generation: board.generation };
  return period ? { ...at, periodEnd: period.end } : at;
}

function defaults(name: string) {
  return {
    name,
    display_name: name,
    insert_option: 'keep',
    time_based: 'na',
    timezone: null,
    max_entries: 10,
    sort: 'desc',
  } as const;
}

function checkTimezone(resets: LeaderboardRow['time_based'], timezone: string | null): string | null {
  if (resets === 'na') return timezone && isValidTimeZone(timezone) ? timezone : null;
  if (!timezone) throw E.timezone('Choose a time zone for a leaderboard that resets.');
  if (!isValidTimeZone(timezone)) throw E.timezone(`"${timezone}" is not an IANA time zone such as Europe/London.`);
  return timezone;
}
