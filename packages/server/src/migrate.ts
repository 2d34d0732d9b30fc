import { loadConfig } from './config.js';
import { createDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';

/** `npm run migrate`: brings DATABASE_URL's schema to the newest version and exits. */
try {
  const config = loadConfig();
  const database = createDatabase(config.databaseUrl);
  try {
    const applied = await migrateToLatest(database);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date.');
  } finally {
    await database.destroy();
  }
} catch (err) {
  // A bad setting or an unreachable database is said in one line; a migration's failure names it.
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
}
