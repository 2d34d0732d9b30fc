import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Client deletes are off for new games: the key ships in every game build. Existing games keep
// their setting. SQLite cannot change a column's default without rebuilding the table (and its
// foreign keys), so there the games service names the value on every insert, as it does here too.
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table games alter column allow_client_deletes set default 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table games alter column allow_client_deletes set default 1`.execute(db);
}
