import type { CreateLeaderboardBody, Leaderboard, ScoreEntry, ScoresPage, UpdateLeaderboardBody } from '@howl/contract';
import type { Kysely, Transaction } from 'kysely';
import { statisticsRefresher } from '../../db/dialect-sql.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { DB } from '../../db/schema.js';
import { noCaches, type Caches } from '../../lib/cache.js';
import type { Clock } from '../../lib/clock.js';
import { sharedAnswer } from '../../lib/shared-answer.js';
import { newId } from '../../lib/tokens.js';
import { leaderboardErrors as E, MAX_LEADERBOARDS_PER_GAME } from './errors.js';
import type { LeaderboardRow } from './leaderboards.table.js';
import type { OrderKey } from '../ranking/order.js';
import { isValidTimeZone, periodAt, samePeriod, type Period } from './periods.js';
import type { BoardPeriod, RankIndex, ShownRow } from '../ranking/rank-index.js';
import { decodeCursor, encodeCursor, toEntry, toLeaderboard, toPeriod } from './format.js';
import * as store from './store.js';
import { createScoreImport } from './import.js';
import { createScoreWrites } from './writes.js';
import { gameErrors } from '../games/errors.js';

/** The largest page the game API answers at once; `max=0` means "all", up to this, with a cursor for the rest. */
export const MAX_PAGE = 1000;
/** A player's positions asked at once: a Redis index answers them in one round trip, and the SQL one takes no more than a pool's share. */
const POSITIONS_AT_ONCE = 32;
export const DASHBOARD_PAGE = 50;
/** The most neighbours an around query answers on each side. */
export const MAX_AROUND = 50;

export interface LeaderboardsDeps {
  db: Kysely<DB>;
  clock: Clock;
  rankIndex: RankIndex;
  /** Where each game's boards are kept between calls; without, every call reads the database. */
  caches?: Caches;
  /** Hears a failure of work done beside the requests (gathering the planner's statistics). */
  onBackgroundError?: (err: unknown) => void;
}

interface Resolved {
  board: LeaderboardRow;
  at: BoardPeriod;
  period: Period | null;
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
  // A first page the index shares (the same frozen rows until they change) answers as one shared
  // object, made once, for as long as the board's settings and the period it was made for hold.
  const firstPages = new WeakMap<
    readonly ShownRow[],
    { board: LeaderboardRow; period: Period | null; answer: ScoresPage }
  >();

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

  /** How many more entries a page starting after `listed` entries may show. */
  const room = (board: LeaderboardRow, listed: number, want: number) =>
    Math.max(0, Math.min(want, (board.max_entries ?? Number.POSITIVE_INFINITY) - listed));

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

    /** A page of the board, best first; `cursor` continues where the last page ended. */
    async scores(gameId: string, name: string, q: { max: number; period_offset: number; cursor?: string | undefined }) {
      const r = await resolve(gameId, name, q.period_offset);
      const after = q.cursor ? decodeCursor(q.cursor, r.at) : undefined;
      const listed = after?.position ?? 0;
      const want = q.max === 0 ? MAX_PAGE : Math.min(q.max, MAX_PAGE);
      const limit = room(r.board, listed, want);
      // One more than asked tells whether there is a next page.
      const rows = limit === 0 ? [] : await rankIndex.page(r.at, after?.key, limit + 1);
      const shared = !after && Object.isFrozen(rows);
      const made = shared ? firstPages.get(rows) : undefined;
      // The same rows array means the same limit (the index shares one per page length).
      if (made && made.board === r.board && samePeriod(made.period, r.period)) return made.answer;
      const page = rows.slice(0, limit);
      const more = rows.length > limit && room(r.board, listed + page.length, 1) > 0;
      const last = page.at(-1);
      const answer: ScoresPage = {
        scores: page.map((row, i) => toEntry(row, listed + i + 1)),
        period: toPeriod(r.period),
        cursor: more && last ? encodeCursor(r.at, last, listed + page.length) : null,
      };
      if (!shared) return answer;
      firstPages.set(rows, { board: r.board, period: r.period, answer: sharedAnswer(answer) });
      return answer;
    },

    async playerScores(gameId: string, name: string, player: string, q: { max: number; period_offset: number }) {
      const r = await resolve(gameId, name, q.period_offset);
      const rows = await store.playerEntries(
        db,
        r.board.id,
        r.at.periodStart,
        player,
        r.board.sort,
        q.max === 0 ? MAX_PAGE : Math.min(q.max, MAX_PAGE),
      );
      const positions: Array<number | null> = [];
      for (let i = 0; i < rows.length; i += POSITIONS_AT_ONCE) {
        const chunk = rows.slice(i, i + POSITIONS_AT_ONCE);
        positions.push(...(await Promise.all(chunk.map((row) => positionOf(r.board, r.at, row)))));
      }
      const scores: ScoreEntry[] = [];
      rows.forEach((row, i) => {
        if (positions[i] !== null) scores.push(toEntry(row, positions[i]!));
      });
      return { scores, period: toPeriod(r.period), cursor: null };
    },

    async playerTop(gameId: string, name: string, player: string, q: { period_offset: number }) {
      const r = await resolve(gameId, name, q.period_offset);
      const [best] = await store.playerEntries(db, r.board.id, r.at.periodStart, player, r.board.sort, 1);
      const position = best ? await positionOf(r.board, r.at, best) : null;
      return { score: best && position !== null ? toEntry(best, position) : null, period: toPeriod(r.period) };
    },

    /** The position of a saved score, or the one a value would take if submitted now. */
    async position(
      gameId: string,
      name: string,
      q: { score_id?: string | undefined; score?: number | undefined; period_offset: number },
    ) {
      const r = await resolve(gameId, name, q.period_offset);
      const key = await target(r, q);
      return { position: await positionOf(r.board, r.at, key), period: toPeriod(r.period) };
    },

    /** `count` entries above and below a saved score, or around where a value would land. */
    async around(
      gameId: string,
      name: string,
      q: { score_id?: string | undefined; score?: number | undefined; count: number; period_offset: number },
    ) {
      const r = await resolve(gameId, name, q.period_offset);
      const key = await target(r, q);
      // Both sides at once (one query at most); only those within the board's size are shown.
      const near = await rankIndex.around(r.at, key, q.count);
      const position = near.countAbove + 1;
      const onBoard = r.board.max_entries === null || position <= r.board.max_entries;
      const upper = near.above.slice(0, room(r.board, 0, near.countAbove)).reverse();
      const lower = onBoard ? near.below.slice(0, room(r.board, position, q.count)) : [];
      return {
        position: onBoard ? position : null,
        scores_above: upper.map((row, i) => toEntry(row, position - upper.length + i)),
        scores_below: lower.map((row, i) => toEntry(row, position + i + 1)),
        period: toPeriod(r.period),
      };
    },

    ...writes,
    ...createScoreImport({ db, rankIndex, changed, imported: statistics.imported }),
  };

  /** The order key a position or around query is about: a saved score, or a value submitted now (after its ties). */
  async function target(
    r: Resolved,
    q: { score_id?: string | undefined; score?: number | undefined },
  ): Promise<OrderKey> {
    if (q.score_id !== undefined) {
      // An entry the index holds in this period needs no read.
      const held = await rankIndex.keyOf(r.at, q.score_id);
      if (held) return held;
      const entry = await store.findEntry(db, r.board.id, q.score_id);
      if (!entry || entry.period_start !== r.at.periodStart) throw E.scoreNotFound();
      return entry;
    }
    // A new submission ties after every equal score: it is the latest, and its name and id sort last.
    return { score: q.score!, timestamp: Number.MAX_SAFE_INTEGER, player_name: '\u{10FFFF}', id: '\u{10FFFF}' };
  }
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
