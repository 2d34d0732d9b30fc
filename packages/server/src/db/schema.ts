import type { IdentityCodeTable, IdentitySessionTable, IdentityUserTable } from '../modules/identity/identity.table.js';
import type { DeveloperTable } from '../modules/developers/developers.table.js';

/** The whole database as Kysely sees it; each feature declares its own tables. */
export interface DB {
  identity_users: IdentityUserTable;
  identity_codes: IdentityCodeTable;
  identity_sessions: IdentitySessionTable;
  developers: DeveloperTable;
}
