import type { Kysely } from 'kysely';

// Frozen in time: never import app code here.
export async function up(db: Kysely<any>): Promise<void> {
  // Player authentication settings live on the game row, which every game call already reads.
  await db.schema
    .alterTable('games')
    .addColumn('session_duration_seconds', 'integer', (c) => c.notNull().defaultTo(3600))
    .execute();
  await db.schema
    .alterTable('games')
    .addColumn('saved_session_days', 'integer', (c) => c.notNull().defaultTo(30))
    .execute();
  await db.schema
    .alterTable('games')
    .addColumn('require_player_session', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // A game's own wording for its players' code mails; null fields fall back to the defaults.
  await db.schema
    .createTable('player_email_templates')
    .addColumn('game_id', 'text', (c) => c.primaryKey().references('games.id').onDelete('cascade'))
    .addColumn('confirmation_subject', 'text')
    .addColumn('confirmation_body', 'text')
    .addColumn('reset_subject', 'text')
    .addColumn('reset_body', 'text')
    .addColumn('reply_to', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  // "Remember me": a long-lived token that only mints short sessions. Ending it ends those sessions.
  await db.schema
    .createTable('identity_saved_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('identity_users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('identity_saved_sessions_user').on('identity_saved_sessions').column('user_id').execute();
  await db.schema
    .alterTable('identity_sessions')
    .addColumn('saved_session_hash', 'text', (c) =>
      c.references('identity_saved_sessions.token_hash').onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('identity_sessions_saved').on('identity_sessions').column('saved_session_hash').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('identity_sessions_saved').execute();
  await db.schema.alterTable('identity_sessions').dropColumn('saved_session_hash').execute();
  await db.schema.dropTable('identity_saved_sessions').execute();
  await db.schema.dropTable('player_email_templates').execute();
  await db.schema.alterTable('games').dropColumn('require_player_session').execute();
  await db.schema.alterTable('games').dropColumn('saved_session_days').execute();
  await db.schema.alterTable('games').dropColumn('session_duration_seconds').execute();
}
