import { loadConfig } from './config.js';
import { createDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';

/** `npm run migrate`: brings DATABASE_URL's schema to the newest version and exits. */
const config = loadConfig();
const database = createDatabase(config.databaseUrl);
try {
  const applied = await migrateToLatest(database);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date.');
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  await database.destroy();
}
