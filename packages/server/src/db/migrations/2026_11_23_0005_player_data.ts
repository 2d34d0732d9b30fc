import type { Kysely } from 'kysely';

// Frozen in time: never import app code here.
export async function up(db: Kysely<any>): Promise<void> {
  // One JSON document per player of a game, and one per character ('' is the player's own).
  // Kept as the text the client sent (compact), so reads send it back without parsing it.
  await db.schema
    .createTable('player_data')
    .addColumn('game_id', 'text', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('player_name', 'text', (c) => c.notNull())
    .addColumn('character_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('player_data_pk', ['game_id', 'player_name', 'character_name'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('player_data').execute();
}
