import type { Kysely } from 'kysely';

// Frozen in time: never import app code here.
export async function up(db: Kysely<any>): Promise<void> {
  // One row per scheduled job: the process whose conditional UPDATE moves next_run_at on runs it.
  await db.schema
    .createTable('scheduled_jobs')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('next_run_at', 'bigint', (c) => c.notNull())
    .addColumn('claimed_at', 'bigint')
    .addColumn('claimed_by', 'text')
    .addColumn('finished_at', 'bigint')
    .execute();
  // The purge finds pending subscriptions whose confirmation link has expired.
  await db.schema
    .createIndex('newsletter_subscriptions_confirm_expires')
    .on('newsletter_subscriptions')
    .column('confirm_expires_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('newsletter_subscriptions_confirm_expires').execute();
  await db.schema.dropTable('scheduled_jobs').execute();
}
