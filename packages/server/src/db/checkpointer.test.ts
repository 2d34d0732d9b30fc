import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDatabase } from './database.js';

describe('sqlite: WAL checkpoints off the request path', () => {
  it('turns automatic checkpoints off on the serving connection and empties the WAL from its own thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'howl-wal-'));
    const file = join(dir, 'howl.db');
    const database = createDatabase(`sqlite:${file}`);
    try {
      const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db);
      expect(rows[0]!.wal_autocheckpoint).toBe(0);
      await sql`create table filler (v text)`.execute(database.db);
      for (let i = 0; i < 50; i++) await sql`insert into filler values (${'x'.repeat(4000)})`.execute(database.db);
      // The writes sit in the WAL until the checkpointer copies them over (within about a second).
      const deadline = Date.now() + 5000;
      let copied = false;
      while (!copied && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        // Once checkpointed, the main file itself holds the rows.
        copied = statSync(file).size > 50 * 4000;
      }
      expect(copied).toBe(true);
    } finally {
      await database.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the WAL file small without holding writers off: a full copy, then the next write starts it over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'howl-wal-'));
    const file = join(dir, 'howl.db');
    const database = createDatabase(`sqlite:${file}`);
    try {
      const { rows } = await sql<{ journal_size_limit: number }>`pragma journal_size_limit`.execute(database.db);
      expect(rows[0]!.journal_size_limit).toBe(64 * 1024 * 1024);
      // A low limit here, so the cut shows on a small WAL.
      await sql`pragma journal_size_limit = 16384`.execute(database.db);
      await sql`create table filler (v text)`.execute(database.db);
      for (let i = 0; i < 50; i++) await sql`insert into filler values (${'x'.repeat(4000)})`.execute(database.db);
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(50 * 4000);
      // A write after the checkpointer (within about a second) copied everything starts the WAL over.
      const deadline = Date.now() + 5000;
      while (statSync(`${file}-wal`).size > 16384 + 8192 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        await sql`insert into filler values ('y')`.execute(database.db);
      }
      expect(statSync(`${file}-wal`).size).toBeLessThanOrEqual(16384 + 8192);
      expect(
        (await sql<{ n: number }>`select count(*) as n from filler`.execute(database.db)).rows[0]!.n,
      ).toBeGreaterThan(50);
    } finally {
      await database.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
