import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDatabase, type Database } from './database.js';
import { migrateToLatest } from './migrate.js';
import { sqliteReader } from './sqlite-reader.js';

const readlinkOr = (path: string) => {
  try {
    return readlinkSync(path);
  } catch {
    return undefined; // closed meanwhile
  }
};
const raw = (text: string, parameters: unknown[] = []) => CompiledQuery.raw(text, parameters);

describe('sqlite file: reads in a thread of their own', () => {
  let dir: string;
  let database: Database;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'howl-reader-'));
    database = createDatabase(`sqlite:${join(dir, 'howl.db')}`);
    await migrateToLatest(database);
    await sql`create table numbers (n integer primary key, label text)`.execute(database.db);
  });
  afterAll(async () => {
    await database?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers rows as arrays, and sees what the serving connection committed before each read', async () => {
    expect(await database.rows(raw('select count(*) from numbers'))).toEqual([[0]]);
    await sql`insert into numbers values (1, 'one'), (2, 'two'), (3, 'three')`.execute(database.db);
    expect(await database.rows(raw('select n, label from numbers where n >= ? order by n', [2]))).toEqual([
      [2, 'two'],
      [3, 'three'],
    ]);
    // Reads asked for together are answered in turn, each with its own rows.
    const answers = await Promise.all(
      [1, 2, 3].map((n) => database.rows(raw('select label from numbers where n = ?', [n]))),
    );
    expect(answers).toEqual([[['one']], [['two']], [['three']]]);
  });

  it("reads on a connection of its own: not the serving connection's open transaction, and never waiting for it", async () => {
    await database.db.transaction().execute(async (trx) => {
      await sql`insert into numbers values (9, 'nine')`.execute(trx);
      expect(await database.rows(raw('select count(*) from numbers'))).toEqual([[3]]);
    });
    expect(await database.rows(raw('select count(*) from numbers'))).toEqual([[4]]);
    await sql`delete from numbers where n = 9`.execute(database.db);
  });

  it("fails a read with SQLite's own message, and the next read still answers", async () => {
    await expect(database.rows(raw('select missing_column from numbers'))).rejects.toThrow(
      'no such column: missing_column',
    );
    expect(await database.rows(raw('select count(*) from numbers'))).toEqual([[3]]);
  });

  it('cannot write: the thread opens the file read-only', async () => {
    await expect(database.rows(raw("insert into numbers values (4, 'four') returning n"))).rejects.toThrow(/readonly/);
    expect(await database.rows(raw('select count(*) from numbers'))).toEqual([[3]]);
  });

  it('fails what it owes when the file cannot be opened, and a closed reader starts again on the next read', async () => {
    const missing = sqliteReader(join(dir, 'missing.db'));
    await expect(missing.rows(raw('select 1'))).rejects.toThrow(/unable to open|does not exist/);
    await missing.close();
    const reader = sqliteReader(join(dir, 'howl.db'));
    expect(await reader.rows(raw('select count(*) from numbers'))).toEqual([[3]]);
    await reader.close();
    expect(await reader.rows(raw('select count(*) from numbers'))).toEqual([[3]]);
    await reader.close();
  });

  it.skipIf(process.platform !== 'linux')(
    'lets its thread go once idle, and starts another for the next read',
    async () => {
      // A file nothing else here opens: the thread's connection is the one handle on it.
      const file = join(dir, 'alone.db');
      new SqliteDatabase(file).exec('create table t (n integer)').close();
      const handles = () =>
        readdirSync('/proc/self/fd').filter((fd) => readlinkOr(`/proc/self/fd/${fd}`) === file).length;
      const reader = sqliteReader(file, 50);
      expect(await reader.rows(raw('select count(*) from t'))).toEqual([[0]]);
      expect(handles()).toBe(1);
      await vi.waitFor(() => expect(handles()).toBe(0), { timeout: 2000 });
      expect(await reader.rows(raw('select count(*) from t'))).toEqual([[0]]);
      expect(handles()).toBe(1);
      await reader.close();
      expect(handles()).toBe(0);
    },
  );

  it('fails a read under way when it is closed, and a read keeps the process alive only until it is answered', async () => {
    const reader = sqliteReader(join(dir, 'howl.db'));
    const slow = reader.rows(
      raw('with recursive c(n) as (select 1 union all select n + 1 from c where n < 5000000) select count(*) from c'),
    );
    await reader.close();
    await expect(slow).rejects.toThrow('the reading thread ended');
    // A process that reads once must exit at once, not when the idle thread ends 10 s later.
    const script = `
      import { CompiledQuery } from 'kysely';
      import { sqliteReader } from ${JSON.stringify(new URL('./sqlite-reader.ts', import.meta.url).href)};
      const rows = await sqliteReader(process.argv[1]).rows(CompiledQuery.raw('select count(*) from numbers', []));
      console.log(JSON.stringify(rows));`;
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script, join(dir, 'howl.db')],
      {
        cwd: new URL('../..', import.meta.url).pathname,
        encoding: 'utf8',
        timeout: 8_000,
      },
    );
    expect({ status: child.status, out: child.stdout.trim() }).toEqual({ status: 0, out: '[[3]]' });
  });
});
