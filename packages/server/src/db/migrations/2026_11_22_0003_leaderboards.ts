import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// Frozen in time: never import app code here.
// Player names and ids order by code point on both engines: SQLite's default (BINARY) already
// does; PostgreSQL needs COLLATE "C", or its locale would order names differently.
export async function up(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const codePoint = (c: ColumnDefinitionBuilder) => (isPostgres ? c.modifyEnd(sql`collate "C"`) : c);

  await db.schema
    .createTable('leaderboards')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('game_id', 'text', (c) => c.notNull().references('games.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('insert_option', 'text', (c) => c.notNull().defaultTo('keep'))
    .addColumn('time_based', 'text', (c) => c.notNull().defaultTo('na'))
    .addColumn('timezone', 'text')
    .addColumn('max_entries', 'integer')
    .addColumn('sort', 'text', (c) => c.notNull().defaultTo('desc'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('leaderboards_game_name', ['game_id', 'name'])
    .execute();

  await db.schema
    .createTable('scores')
    .addColumn('id', 'text', (c) => codePoint(c.primaryKey()))
    .addColumn('leaderboard_id', 'text', (c) => c.notNull().references('leaderboards.id').onDelete('cascade'))
    // 0 on boards without resets; otherwise the period's start, epoch ms.
    .addColumn('period_start', 'bigint', (c) => c.notNull())
    .addColumn('player_name', 'text', (c) => codePoint(c.notNull()))
    // The player's name where a board keeps one entry per player, the score id where it keeps all.
    .addColumn('player_key', 'text', (c) => c.notNull())
    .addColumn('score', 'double precision', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('metadata', 'text')
    .addColumn('engine', 'integer')
    // Bumped by every update of the entry, so an index can tell a newer state from an older one.
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('scores_one_entry', ['leaderboard_id', 'period_start', 'player_key'])
    .execute();
  await db.schema
    .createIndex('scores_rank')
    .on('scores')
    .columns(['leaderboard_id', 'period_start', 'score', 'timestamp', 'player_name', 'id'])
    .execute();
  await db.schema
    .createIndex('scores_player')
    .on('scores')
    .columns(['leaderboard_id', 'period_start', 'player_name'])
    .execute();

  // Every game has the default board `main` (keep, no reset, 10 entries).
  await sql`insert into leaderboards (id, game_id, name, display_name, insert_option, time_based, max_entries, sort, created_at)
    select id || '/main', id, 'main', 'main', 'keep', 'na', 10, 'desc', created_at from games`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('scores').execute();
  await db.schema.dropTable('leaderboards').execute();
}
