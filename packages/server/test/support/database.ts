import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createDatabase, type Database, type DatabaseOptions, type Dialect } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { services } from './services.js';

/**
 * A migrated, empty database of the given dialect. SQLite lives in memory; PostgreSQL gets a schema
 * of its own that `close()` drops, so parallel runs and other users of the server never collide.
 */
export async function openTestDatabase(
  dialect: Dialect,
  options: Pick<DatabaseOptions, 'onQuery' | 'onFailedQuery' | 'namedStatements'> = {},
): Promise<Database & { close(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const database = createDatabase('sqlite::memory:', options);
    await migrateToLatest(database);
    return { ...database, close: () => database.destroy() };
  }
  const url = services.postgresUrl!;
  const schema = `howl_test_${randomBytes(6).toString('hex')}`;
  await admin(url, `create schema ${schema}`);
  const database = createDatabase(url, { schema, ...options });
  await migratingBesideOthers(url, () => migrateToLatest(database));
  return {
    ...database,
    async close() {
      await database.destroy();
      await dropSchema(url, schema);
    },
  };
}

// Kysely's migrator lists the columns of every table in the database, whatever their schema, and
// that listing fails ("schema … does not exist") when a test file running beside it drops its
// schema meanwhile. Migrations hold this lock shared, so they still run side by side; a drop holds
// it alone. Any fixed number: only these tests take it.
const SCHEMA_DROP_LOCK = 4_170_529_338;

/** Runs a migration of a schema in the shared test database while no test file drops one. */
export function migratingBesideOthers<T>(url: string, migrate: () => Promise<T>): Promise<T> {
  return holdingSchemaLock(url, 'shared', migrate);
}

/** Drops a test schema once no migration of the shared test database is under way. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  await holdingSchemaLock(url, 'alone', (client) => client.query(`drop schema if exists ${schema} cascade`));
}

/** Runs `run` in a session of its own that holds SCHEMA_DROP_LOCK, shared or alone, until it ends. */
async function holdingSchemaLock<T>(url: string, how: 'shared' | 'alone', run: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`select pg_advisory_lock${how === 'shared' ? '_shared' : ''}($1)`, [SCHEMA_DROP_LOCK]);
    return await run(client);
  } finally {
    // Ending the session lets go of its lock.
    await client.end();
  }
}

/** A migrated, empty SQLite file, as the server runs (bulk reads in a thread, hot reads off Kysely); `close()` removes it. */
export async function openSqliteFile(
  options: Pick<DatabaseOptions, 'onQuery'> = {},
): Promise<Database & { close(): Promise<void> }> {
  const fresh = await freshDatabase('sqlite');
  const database = createDatabase(fresh.url, options);
  await migrateToLatest(database);
  return { ...database, close: async () => (await database.destroy(), await fresh.drop()) };
}

/** A file or a database of its own that the server process opens by URL; `drop()` removes it. */
export async function freshDatabase(dialect: Dialect): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'howl-db-'));
    return { url: `sqlite:${join(dir, 'howl.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const base = services.postgresUrl!;
  const name = `howl_db_${randomBytes(5).toString('hex')}`;
  await admin(base, `create database ${name}`);
  const url = Object.assign(new URL(base), { pathname: `/${name}` }).toString();
  return { url, drop: () => admin(base, `drop database if exists ${name} with (force)`) };
}

/** Runs one statement on its own connection (creating and dropping schemas and databases). */
export async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
