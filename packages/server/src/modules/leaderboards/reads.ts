import type { ScoreEntry, ScoresPage } from '@howl/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { sharedAnswer } from '../../lib/shared-answer.js';
import { leaderboardErrors as E } from './errors.js';
import type { LeaderboardRow } from './leaderboards.table.js';
import type { OrderKey } from '../ranking/order.js';
import { samePeriod, type Period } from './periods.js';
import type { BoardPeriod, RankIndex, ShownRow } from '../ranking/rank-index.js';
import { decodeCursor, encodeCursor, toEntry, toPeriod } from './format.js';
import * as store from './store.js';

/** The largest page the game API answers at once; `max=0` means "all", up to this, with a cursor for the rest. */
export const MAX_PAGE = 1000;
/** A player's positions asked at once: a Redis index answers them in one round trip, and the SQL one takes no more than a pool's share. */
const POSITIONS_AT_ONCE = 32;
/** The most neighbours an around query answers on each side. */
export const MAX_AROUND = 50;

/** A board and the period a call is about. */
export interface Resolved {
  board: LeaderboardRow;
  at: BoardPeriod;
  period: Period | null;
}

export interface ReadsDeps {
  db: Kysely<DB>;
  rankIndex: RankIndex;
  /** The board and period `offset` periods back (0: current); 404 when the game has no such board. */
  resolve(gameId: string, name: string, offset: number): Promise<Resolved>;
  /** 1-based position of an entry, or null when it is past the board's size. */
  positionOf(board: LeaderboardRow, at: BoardPeriod, key: OrderKey): Promise<number | null>;
}

/** The ranked reads of the game API and the dashboard: pages, a player's scores, a position, around. */
export function createScoreReads({ db, rankIndex, resolve, positionOf }: ReadsDeps) {
  // A first page the index shares (the same frozen rows until they change) answers as one shared
  // object, made once, for as long as the board's settings and the period it was made for hold.
  const firstPages = new WeakMap<
    readonly ShownRow[],
    { board: LeaderboardRow; period: Period | null; answer: ScoresPage }
  >();

  /** How many more entries a page starting after `listed` entries may show. */
  const room = (board: LeaderboardRow, listed: number, want: number) =>
    Math.max(0, Math.min(want, (board.max_entries ?? Number.POSITIVE_INFINITY) - listed));

  return {
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
      if (!entry) throw E.scoreNotFound();
      if (entry.period_start !== r.at.periodStart) throw E.scoreInOtherPeriod();
      return entry;
    }
    // A new submission ties after every equal score: it is the latest, and its name and id sort last.
    return { score: q.score!, timestamp: Number.MAX_SAFE_INTEGER, player_name: '\u{10FFFF}', id: '\u{10FFFF}' };
  }
}
