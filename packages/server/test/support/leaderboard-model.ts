import type { InsertOption, SortOrder } from '@howl/contract';
import { compareEntries, type OrderKey } from '../../src/modules/ranking/order.js';

export interface ModelEntry extends OrderKey {
  period: number;
}

/**
 * The leaderboard semantics of docs/leaderboards.md as plain arrays: what every implementation
 * must answer. Deliberately simple (sort everything, every time) so that it is obviously right.
 */
export class LeaderboardModel {
  entries: ModelEntry[] = [];

  constructor(readonly board: { mode: InsertOption; sort: SortOrder; maxEntries: number | null }) {}

  ranked(period: number): ModelEntry[] {
    return this.entries.filter((e) => e.period === period).sort((a, b) => compareEntries(a, b, this.board.sort));
  }

  position(period: number, id: string): number | null {
    const i = this.ranked(period).findIndex((e) => e.id === id);
    return i < 0 ? null : i + 1;
  }

  /**
   * Applies a submission. `id` is the id the implementation gave a new entry (ids are random).
   * Answers what the save call must answer.
   */
  save(s: { period: number; player: string; score: number; now: number; id: string }): {
    score_id: string;
    position: number | null;
    kept: boolean;
  } {
    const fresh: ModelEntry = { id: s.id, period: s.period, player_name: s.player, score: s.score, timestamp: s.now };
    const standing =
      this.board.mode === 'keep'
        ? undefined
        : this.entries.find((e) => e.period === s.period && e.player_name === s.player);
    let entry: ModelEntry;
    if (!standing) {
      entry = fresh;
      this.entries.push(entry);
    } else if (this.board.mode === 'highest') {
      const better = this.board.sort === 'desc' ? s.score > standing.score : s.score < standing.score;
      if (!better) return { score_id: standing.id, position: this.position(s.period, standing.id), kept: false };
      Object.assign(standing, { score: s.score, timestamp: s.now });
      entry = standing;
    } else if (this.board.mode === 'latest') {
      Object.assign(standing, { score: s.score, timestamp: s.now });
      entry = standing;
    } else {
      Object.assign(standing, { score: standing.score + s.score, timestamp: s.now });
      entry = standing;
    }
    this.trim(s.period);
    const position = this.position(s.period, entry.id);
    return { score_id: entry.id, position, kept: position !== null };
  }

  trim(period: number): void {
    if (this.board.maxEntries === null) return;
    const keep = new Set(
      this.ranked(period)
        .slice(0, this.board.maxEntries)
        .map((e) => e.id),
    );
    this.entries = this.entries.filter((e) => e.period !== period || keep.has(e.id));
  }

  delete(id: string): void {
    this.entries = this.entries.filter((e) => e.id !== id);
  }

  wipe(): void {
    this.entries = [];
  }

  /** The position a value would take if submitted now: after every entry with the same score. */
  positionForScore(period: number, score: number): number {
    const better = this.ranked(period).filter((e) =>
      this.board.sort === 'desc' ? e.score >= score : e.score <= score,
    ).length;
    return better + 1;
  }
}
