import type { InsertOption, ResetPeriod, SortOrder } from '@howl/contract';
import type { ColumnType, Insertable, Selectable } from 'kysely';

export interface LeaderboardTable {
  id: string;
  game_id: string;
  name: string;
  display_name: string;
  insert_option: InsertOption;
  time_based: ResetPeriod;
  timezone: string | null;
  /** null: unlimited. */
  max_entries: number | null;
  sort: SortOrder;
  created_at: number;
  /** +1 at every wipe or change of settings, in the same transaction: tells a rank index which write notices are stale. */
  generation: ColumnType<number, number | undefined, number>;
}
export type LeaderboardRow = Selectable<LeaderboardTable>;
export type NewLeaderboard = Insertable<LeaderboardTable>;

export interface ScoreTable {
  id: string;
  leaderboard_id: string;
  period_start: number;
  player_name: string;
  player_key: string;
  score: number;
  timestamp: number;
  /** Compact JSON text, returned as stored. */
  metadata: string | null;
  /** 3 or 4, from the client's x-howl-engine header. */
  engine: number | null;
  /** 0 when saved, +1 at every update: lets a rank index ignore a stale update. */
  revision: ColumnType<number, number | undefined, number>;
}
export type ScoreRow = Selectable<ScoreTable>;
