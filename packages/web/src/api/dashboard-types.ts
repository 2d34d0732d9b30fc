import type { LeaderboardWithStats, PlayersPage, ScoreEntry } from '@howl/contract';

export type {
  LeaderboardsResponse,
  PlayerAuthSettings,
  PlayersPage,
  ScoresPage as ScoresPageBody,
} from '@howl/contract';
export type Player = PlayersPage['players'][number];
export type Board = LeaderboardWithStats;
export type Score = ScoreEntry;
