import { READ_ROW, engineOf, shownBits } from './entry-table.js';
import type { LoadColumns } from './load-chunks.js';
import type { OrderKey } from './order.js';
import type { BoardPeriod, IndexedEntry, ShownRow } from './rank-index.js';

/**
 * Encodes an entry so that Redis's sorted-set order is the board's total order: the set's score is
 * the game score (negated on `desc` boards, so the best comes first) and ties are broken by the
 * member, compared bytewise: a 16-digit timestamp, the player name (UTF-8 bytes compare in code
 * point order; names hold no control characters, so NUL ends them), then the score id.
 */
export function encode(key: OrderKey, sort: BoardPeriod['sort']): { z: string; member: string } {
  const z = sort === 'desc' ? -key.score : key.score;
  return {
    z: String(z === 0 ? 0 : z),
    member: `${String(key.timestamp).padStart(16, '0')}${key.player_name}\u0000${key.id}`,
  };
}

/**
 * The member a saved entry is stored as: its order (`encode`), then, after SOH (which no name or id
 * holds, so the order is untouched), its revision and what its row shows besides the order (the
 * 3 bits of entry-table.ts), so that an answer builds rows without metadata with no query.
 */
export const storedMember = (entry: IndexedEntry, sort: BoardPeriod['sort'], shown: number) =>
  `${encode(entry, sort).member}\u0001${entry.revision}\u0001${shown}`;

/** The order key a stored member (of any release) and its set score `z` encode: `encode` read back. */
export function keyOfMember(sort: BoardPeriod['sort'], member: string, z: string): OrderKey {
  const nul = member.lastIndexOf('\u0000');
  const cut = member.indexOf('\u0001', nul);
  return keyAt(sort, member, z, nul, cut === -1 ? member.length : cut);
}

/** The row a stored member shows, or its id when only the row can tell (it has metadata, or the member is from before revisions and bits were stored). */
export function shownOfMember(board: BoardPeriod, member: string, z: string): ShownRow | string {
  const nul = member.lastIndexOf('\u0000');
  const cut = member.indexOf('\u0001', nul);
  if (cut === -1) return member.slice(nul + 1);
  const bitsAt = member.indexOf('\u0001', cut + 1);
  const bits = Number(member.slice(bitsAt + 1));
  if (bits & READ_ROW) return member.slice(nul + 1, cut);
  const key = keyAt(board.sort, member, z, nul, cut);
  // Each field named, not spread: a spread object here cost twenty times as much to build (8 µs).
  return {
    id: key.id,
    leaderboard_id: board.boardId,
    period_start: board.periodStart,
    player_name: key.player_name,
    score: key.score,
    timestamp: key.timestamp,
    metadata: null,
    engine: engineOf(bits),
    revision: Number(member.slice(cut + 1, bitsAt)),
  };
}

/** A member's order key, its name ending at `nul` and its id at `idEnd` (both found once by the caller). */
function keyAt(sort: BoardPeriod['sort'], member: string, z: string, nul: number, idEnd: number): OrderKey {
  const score = sort === 'desc' ? -Number(z) : Number(z);
  return {
    score: score === 0 ? 0 : score,
    timestamp: Number(member.slice(0, 16)),
    player_name: member.slice(16, nul),
    id: member.slice(nul + 1, idEnd),
  };
}

/** The arguments of one rebuild's `howlLoad` call for entries [start, end) of a load's columns: id, revision, z, member each. */
export function loadArgs(columns: LoadColumns, start: number, end: number, sort: BoardPeriod['sort']): string[] {
  const [ids, scores, timestamps, names, revisions, engines, metas] = columns;
  const args: string[] = [];
  for (let i = start; i < end; i++) {
    const entry = {
      id: ids[i]!,
      score: scores[i]!,
      timestamp: timestamps[i]!,
      player_name: names[i]!,
      revision: revisions[i]!,
    };
    args.push(
      entry.id,
      String(entry.revision),
      encode(entry, sort).z,
      storedMember(entry, sort, shownBits(metas[i], engines[i])),
    );
  }
  return args;
}
