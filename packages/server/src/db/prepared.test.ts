import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteFile, openTestDatabase } from '../../test/support/database.js';
import { insertDeveloperRow } from '../../test/support/rank-indexes.js';
import { DIALECTS } from '../../test/support/services.js';
import { prepared } from './prepared.js';
import type { DB } from './schema.js';

// SQLite in memory runs every statement through Kysely; a SQLite file runs reads outside a transaction on its own connection.
const SETUPS = [
  ...DIALECTS.map((d) => ({ ...d, name: d.dialect, open: () => openTestDatabase(d.dialect) })),
  { dialect: 'sqlite' as const, skip: false, name: 'sqlite file', open: () => openSqliteFile() },
];

for (const { dialect, skip, name, open } of SETUPS) {
  describe.skipIf(skip)(`${name}: reads compiled once`, () => {
    let database: Awaited<ReturnType<typeof openTestDatabase>>;

    beforeAll(async () => {
      database = await open();
      const now = Date.now();
      await insertDeveloperRow(database.db, 'dev');
      await database.db
        .insertInto('games')
        .values([
          { id: 'g1', owner_id: 'dev', name: 'One', api_key: 'k1', created_at: now },
          { id: 'g2', owner_id: 'dev', name: 'Two', api_key: 'k2', created_at: now },
        ])
        .execute();
    });
    /** PostgreSQL with named statements off. */
    let unnamed: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
    beforeAll(async () => {
      if (dialect === 'postgres') unnamed = await openTestDatabase(dialect, { namedStatements: false });
    });
    afterAll(async () => {
      await database.close();
      await unnamed?.close();
    });

    it('puts each argument where its stand-in was, whatever order the query takes them in', async () => {
      let builds = 0;
      const byIdAndName = prepared((db, id, name) => {
        builds++;
        return db
          .selectFrom('games')
          .select(['id', 'name'])
          .where('name', '=', name!)
          .where('api_key', '<>', 'a constant of the query')
          .where('id', '=', id!);
      });
      expect(await byIdAndName(database.db, 'g1', 'One')).toEqual([{ id: 'g1', name: 'One' }]);
      expect(await byIdAndName(database.db, 'g2', 'Two')).toEqual([{ id: 'g2', name: 'Two' }]);
      expect(await byIdAndName(database.db, 'g1', 'Two')).toEqual([]);
      expect(builds).toBe(1);
    });

    it('refuses a query that does not pass an argument on as it is', async () => {
      const byPattern = prepared((db, name) => db.selectFrom('games').select('id').where('name', 'like', `${name}%`));
      await expect(byPattern(database.db, 'O')).rejects.toThrow('argument 0 is not a parameter');
    });

    it('compiles once per number of arguments, and not again inside a transaction', async () => {
      let builds = 0;
      const byIds = prepared((db, ...ids) => {
        builds++;
        return db.selectFrom('games').select('id').where('id', 'in', ids).orderBy('id');
      });
      expect(await byIds(database.db, 'g2')).toEqual([{ id: 'g2' }]);
      expect(await byIds(database.db, 'g2', 'g1')).toEqual([{ id: 'g1' }, { id: 'g2' }]);
      expect(await byIds(database.db, 'g1')).toEqual([{ id: 'g1' }]);
      expect(await byIds(database.db, 'g3', 'g1')).toEqual([{ id: 'g1' }]);
      expect(builds).toBe(2);
      await database.db.transaction().execute(async (trx) => {
        await trx.updateTable('games').set({ name: 'Renamed' }).where('id', '=', 'g1').execute();
        expect(await byIds(trx, 'g1')).toEqual([{ id: 'g1' }]);
      });
      expect(builds).toBe(2);
    });

    it('takes arguments of any type, numbers and null among them, in a write', async () => {
      const rename = prepared((db, id, name, createdAt) =>
        db
          .updateTable('games')
          .set({ name: name!, created_at: createdAt as never })
          .where('id', '=', id!)
          .returning(['id', 'name', 'created_at']),
      );
      const [row] = await database.db.transaction().execute((trx) => rename(trx, 'g2', 'Two again', 1234));
      expect(row).toEqual({ id: 'g2', name: 'Two again', created_at: 1234 });
      expect(await rename(database.db, 'g2', 'Two', 99)).toEqual([{ id: 'g2', name: 'Two', created_at: 99 }]);
    });

    it('answers what has committed while a write transaction is open: never its uncommitted rows, never waiting for it', async () => {
      const nameOf = prepared((db, id) => db.selectFrom('games').select('name').where('id', '=', id!));
      const committed = await database.db.selectFrom('games').select('name').where('id', '=', 'g1').execute();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let renamed!: () => void;
      const written = new Promise<void>((resolve) => (renamed = resolve));
      const writing = database.db.transaction().execute(async (trx) => {
        await trx.updateTable('games').set({ name: 'Uncommitted' }).where('id', '=', 'g1').execute();
        renamed();
        await held;
      });
      await written;
      if (name === 'sqlite') {
        // One connection, shared: a read outside the transaction waits for it, then sees its rows.
        const read = nameOf(database.db, 'g1');
        release();
        await writing;
        expect(await read).toEqual([{ name: 'Uncommitted' }]);
      } else {
        expect(await nameOf(database.db, 'g1')).toEqual(committed);
        release();
        await writing;
        expect(await nameOf(database.db, 'g1')).toEqual([{ name: 'Uncommitted' }]);
      }
      await database.db.updateTable('games').set(committed[0]!).where('id', '=', 'g1').execute();
    });

    it.skipIf(dialect !== 'postgres')(
      'runs as a statement the server parses once per connection; other queries, and all with the setting off, unnamed',
      async () => {
        const byName = prepared((db, name) => db.selectFrom('games').select('id').where('name', '=', name!));
        /** Runs the read twice and a plain query on one connection; answers what that connection holds. */
        const held = (db: Kysely<DB>) =>
          db.transaction().execute(async (trx) => {
            const found = [...(await byName(trx, 'Two')), ...(await byName(trx, 'Nobody'))];
            await trx.selectFrom('games').select('api_key').where('id', '=', 'g2').execute();
            const statements = await sql<{ name: string; statement: string; runs: number }>`
              select name, statement, (generic_plans + custom_plans)::int as runs from pg_prepared_statements`.execute(
              trx,
            );
            return { found, statements: statements.rows };
          });
        const on = await held(database.db);
        expect(on.found).toEqual([{ id: 'g2' }]);
        // Other tests' reads may be held on this connection too; the plain query never is.
        expect(on.statements).toContainEqual({
          name: expect.stringMatching(/^howl_\d+$/),
          statement: 'select "id" from "games" where "name" = $1',
          runs: 2,
        });
        expect(on.statements.map((r) => r.statement)).not.toContain('select "api_key" from "games" where "id" = $1');
        // DATABASE_NAMED_STATEMENTS=0, for a pooler that cannot keep them: nothing is named.
        expect((await held(unnamed!.db)).statements).toEqual([]);
      },
    );
  });
}
