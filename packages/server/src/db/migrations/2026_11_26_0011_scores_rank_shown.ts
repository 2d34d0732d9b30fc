import { PostgresAdapter, sql, type Kysely } from 'kysely';

// The in-process rank index shows a score without reading its row when the row has no metadata:
// `scores_rank` also holds the engine and whether there is metadata, so a load still never leaves
// it. PostgreSQL scans an index alone only for plain columns, hence a stored generated column
// there; SQLite covers the expression itself (dialect-sql.ts `hasMetadata` reads each its way).
const RANK = ['leaderboard_id', 'period_start', 'score', 'timestamp', 'player_name', 'id', 'revision'];

export async function up(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropIndex('scores_rank').execute();
  if (isPostgres) {
    await sql`alter table scores add column has_metadata boolean generated always as (metadata is not null) stored`.execute(
      db,
    );
    await db.schema
      .createIndex('scores_rank')
      .on('scores')
      .columns([...RANK, 'engine', 'has_metadata'])
      .execute();
  } else {
    await sql`create index scores_rank on scores (${sql.join(RANK.map((c) => sql.ref(c)))}, engine, (metadata is not null))`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropIndex('scores_rank').execute();
  if (isPostgres) await db.schema.alterTable('scores').dropColumn('has_metadata').execute();
  await db.schema.createIndex('scores_rank').on('scores').columns(RANK).execute();
}
