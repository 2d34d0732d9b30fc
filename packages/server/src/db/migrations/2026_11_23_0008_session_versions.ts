import type { Kysely } from 'kysely';

const VERSIONED = ['identity_users', 'identity_sessions', 'identity_saved_sessions'] as const;
const EXPIRING = ['identity_sessions', 'identity_saved_sessions', 'identity_codes'] as const;

// Frozen in time: never import app code here.
export async function up(db: Kysely<any>): Promise<void> {
  // An account's session version moves on whenever all its sessions must end; a session carries
  // the version it was minted under, so one minted from a password checked before the move is dead.
  for (const table of VERSIONED) {
    await db.schema
      .alterTable(table)
      .addColumn('session_version', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  // The purge finds expired rows a batch at a time.
  for (const table of EXPIRING) {
    await db.schema.createIndex(`${table}_expires`).on(table).column('expires_at').execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of EXPIRING) await db.schema.dropIndex(`${table}_expires`).execute();
  for (const table of VERSIONED) await db.schema.alterTable(table).dropColumn('session_version').execute();
}
