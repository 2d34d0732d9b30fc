import { Migrator } from 'kysely';
import { StartError } from '../lib/start-error.js';
import type { Database } from './database.js';
import { migrations } from './migrations/index.js';

/** Brings the database to the newest schema; throws with the failing migration's name. */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations },
    // Kysely looks for its bookkeeping tables in every schema unless told which one is ours.
    ...(database.schema ? { migrationTableSchema: database.schema } : {}),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // Before any migration ran: the database was not reached, or its migrations are not this
    // version's (a newer Howl's, after a downgrade). The URL, with its password, stays out of it.
    if (!failed) throw new StartError(`Cannot migrate the database of DATABASE_URL: ${reason}`, { cause: error });
    throw new Error(`Migration ${failed.migrationName} failed: ${reason}`, { cause: error });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
