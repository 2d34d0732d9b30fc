import type { Kysely } from 'kysely';

// A board's generation moves on whenever its scores change wholesale (a wipe, new settings): a
// rank index drops any notice of a write made under an older generation instead of replaying it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('leaderboards')
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('leaderboards').dropColumn('generation').execute();
}
