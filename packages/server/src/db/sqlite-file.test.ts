import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, gameCall, signedInDeveloper, startTestApp, type TestApp } from '../../test/support/app.js';
import { createDatabase } from './database.js';
import { migrateToLatest } from './migrate.js';

// A write transaction that began as a reader could not take the write lock after a checkpoint
// moved the WAL: SQLite answered "database is locked" at once and the save answered 500.
describe('sqlite file: saves while checkpoints run', () => {
  let t: TestApp;
  let file: string;
  beforeAll(async () => {
    file = join(mkdtempSync(join(tmpdir(), 'howl-file-')), 'howl.db');
    const database = createDatabase(`sqlite:${file}`);
    await migrateToLatest(database);
    t = await startTestApp({ dialect: 'sqlite', database: { ...database, close: () => database.destroy() } });
  });
  afterAll(async () => {
    await t?.close();
    await t?.database.close();
  });

  it('answers every save, however checkpoints and saves interleave', async () => {
    const { cookie } = await signedInDeveloper(t);
    const game = (await call(t.app, 'POST', '/api/games', { body: { name: 'File' }, cookie })).json();
    // Checkpoints from another process, as the server's own checkpointer runs them from another thread.
    const checkpoints = spawn(
      process.execPath,
      [
        '-e',
        `const db = new (require('better-sqlite3'))(process.argv[1]); db.pragma('busy_timeout = 5000');
         setInterval(() => db.pragma('wal_checkpoint(TRUNCATE)'), 1);`,
        file,
      ],
      { cwd: new URL('../..', import.meta.url).pathname, stdio: 'ignore' },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        gameCall(t.app, 'POST', '/v1/leaderboards/main/scores', {
          apiKey: game.api_key,
          gameId: game.game_id,
          body: { player_name: `p${i % 40}`, score: i },
        }),
      ),
    );
    checkpoints.kill();
    expect(answers.filter((a) => a.statusCode !== 200).map((a) => a.body)).toEqual([]);
  });
});
