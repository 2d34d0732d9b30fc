import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { startCheckpointer } from './checkpointer.js';
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

  it('truncates a WAL past its size once all of it is copied, so it never holds writers off while copying', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'howl-wal-'));
    const file = join(dir, 'howl.db');
    const database = createDatabase(`sqlite:${file}`);
    let small: { stop(): Promise<void> } | undefined;
    try {
      await sql`create table filler (v text)`.execute(database.db);
      for (let i = 0; i < 50; i++) await sql`insert into filler values (${'x'.repeat(4000)})`.execute(database.db);
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(8 * 4096);
      // A checkpointer of its own, with a low threshold, started once the WAL is past it.
      small = startCheckpointer(file, 50, 8);
      const deadline = Date.now() + 5000;
      while (statSync(`${file}-wal`).size > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(statSync(`${file}-wal`).size).toBe(0);
      expect((await sql<{ n: number }>`select count(*) as n from filler`.execute(database.db)).rows[0]!.n).toBe(50);
    } finally {
      await small?.stop();
      await database.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
