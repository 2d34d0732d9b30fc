import type { Migration } from 'kysely';
import * as identity from './2026_11_22_0001_identity.js';
import * as games from './2026_11_22_0002_games.js';
import * as leaderboards from './2026_11_22_0003_leaderboards.js';
import * as players from './2026_11_23_0004_players.js';
import * as playerData from './2026_11_23_0005_player_data.js';
import * as scoresRankRevision from './2026_11_23_0006_scores_rank_revision.js';
import * as leaderboardGeneration from './2026_11_23_0007_leaderboard_generation.js';
import * as sessionVersions from './2026_11_23_0008_session_versions.js';
import * as clientDeletesOff from './2026_11_23_0009_client_deletes_off.js';
import * as scheduledJobs from './2026_11_23_0010_scheduled_jobs.js';
import * as scoresRankShown from './2026_11_26_0011_scores_rank_shown.js';

/** Every migration, in order. Add new ones at the end; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '2026_11_22_0001_identity': identity,
  '2026_11_22_0002_games': games,
  '2026_11_22_0003_leaderboards': leaderboards,
  '2026_11_23_0004_players': players,
  '2026_11_23_0005_player_data': playerData,
  '2026_11_23_0006_scores_rank_revision': scoresRankRevision,
  '2026_11_23_0007_leaderboard_generation': leaderboardGeneration,
  '2026_11_23_0008_session_versions': sessionVersions,
  '2026_11_23_0009_client_deletes_off': clientDeletesOff,
  '2026_11_23_0010_scheduled_jobs': scheduledJobs,
  '2026_11_26_0011_scores_rank_shown': scoresRankShown,
};
