import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { admin, dropSchema, migratingBesideOthers } from '../../test/support/database.js';
import { services } from '../../test/support/services.js';
import { createDatabase, type Database } from './database.js';
import { migrateToLatest } from './migrate.js';
import { migrations } from './migrations/index.js';

describe.skipIf(!services.postgresUrl)('migrateToLatest from two processes at once on PostgreSQL', () => {
  const schema = `howl_migrate_${randomBytes(6).toString('hex')}`;
  const opened: Database[] = [];

  afterAll(async () => {
    await Promise.all(opened.map((d) => d.destroy()));
    await dropSchema(services.postgresUrl!, schema);
  });

  it('runs every migration once: one caller applies them under the lock, the other finds nothing left', async () => {
    await admin(services.postgresUrl!, `create schema ${schema}`);
    // Two pools stand for two server processes starting together on one fresh schema.
    const [a, b] = [0, 1].map(() => createDatabase(services.postgresUrl!, { schema, poolSize: 2 }));
    opened.push(a!, b!);

    const [appliedA, appliedB] = await migratingBesideOthers(services.postgresUrl!, () =>
      Promise.all([migrateToLatest(a!), migrateToLatest(b!)]),
    );

    const all = Object.keys(migrations).sort();
    expect([appliedA, appliedB].sort((x, y) => y.length - x.length)).toEqual([all, []]);
    const recorded = await sql<{ name: string }>`select name from ${sql.table(`${schema}.kysely_migration`)}`.execute(
      a!.db,
    );
    expect(recorded.rows.map((r) => r.name).sort()).toEqual(all);
  });
});
