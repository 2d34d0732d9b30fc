import type {
  IdentityCodeTable,
  IdentitySavedSessionTable,
  IdentitySessionTable,
  IdentityUserTable,
} from '../modules/identity/identity.table.js';
import type { PlayerEmailTemplateTable } from '../modules/players/players.table.js';
import type { PlayerDataTable } from '../modules/player-data/player-data.table.js';
import type { DeveloperTable } from '../modules/developers/developers.table.js';
import type { GameTable } from '../modules/games/games.table.js';
import type { LeaderboardTable, ScoreTable } from '../modules/leaderboards/leaderboards.table.js';
import type { ScheduledJobTable } from '../modules/jobs/jobs.table.js';
import type { ContactMessageTable, NewsletterSubscriptionTable } from '../modules/contact/contact.table.js';

/** The whole database as Kysely sees it; each feature declares its own tables. */
export interface DB {
  identity_users: IdentityUserTable;
  identity_codes: IdentityCodeTable;
  identity_sessions: IdentitySessionTable;
  identity_saved_sessions: IdentitySavedSessionTable;
  player_email_templates: PlayerEmailTemplateTable;
  player_data: PlayerDataTable;
  developers: DeveloperTable;
  games: GameTable;
  leaderboards: LeaderboardTable;
  scores: ScoreTable;
  contact_messages: ContactMessageTable;
  newsletter_subscriptions: NewsletterSubscriptionTable;
  scheduled_jobs: ScheduledJobTable;
}
