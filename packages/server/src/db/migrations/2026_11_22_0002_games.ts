import type { Kysely } from 'kysely';

// Frozen in time: never import app code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('games')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('identity_users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('api_key', 'text', (c) => c.notNull().unique())
    .addColumn('player_auth_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reg_type', 'text', (c) => c.notNull().defaultTo('email_un_pwd'))
    .addColumn('email_conf_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('allow_client_deletes', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('latest_plugin_version', 'text')
    .addColumn('latest_engine', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('games_owner').on('games').columns(['owner_id', 'created_at']).execute();

  // The developer's current game. The games service picks the next one when it is deleted; the
  // foreign key only guarantees it can never point at a game that is gone.
  await db.schema
    .alterTable('developers')
    .addColumn('current_game_id', 'text', (c) => c.references('games.id').onDelete('set null'))
    .execute();

  await db.schema
    .createTable('contact_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('developer_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('newsletter_subscriptions')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('confirm_token_hash', 'text', (c) => c.unique())
    .addColumn('confirm_expires_at', 'bigint')
    .addColumn('unsubscribe_token', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('newsletter_subscriptions').execute();
  await db.schema.dropTable('contact_messages').execute();
  await db.schema.alterTable('developers').dropColumn('current_game_id').execute();
  await db.schema.dropTable('games').execute();
}
