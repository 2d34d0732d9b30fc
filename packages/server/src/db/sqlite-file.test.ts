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
         let n = 0; setInterval(() => db.pragma(n++ % 2 ? 'wal_checkpoint(TRUNCATE)' : 'wal_checkpoint(PASSIVE)'), 1);`,
        file,
      ],
      { cwd: new URL('../..', import.meta.url).pathname, stdio: 'ignore' },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    // In waves of two: saves sent together share one transaction, and each BEGIN is a chance to meet a checkpoint.
    const answers = [];
    for (let wave = 0; wave < 600; wave++) {
      answers.push(
        ...(await Promise.all(
          [0, 1].map((k) =>
            gameCall(t.app, 'POST', '/v1/leaderboards/main/scores', {
              apiKey: game.api_key,
              gameId: game.game_id,
              body: { player_name: `p${(wave * 2 + k) % 40}`, score: wave },
            }),
          ),
        )),
      );
    }
    checkpoints.kill();
    expect(answers.filter((a) => a.statusCode !== 200).map((a) => a.body)).toEqual([]);
  });

  it('answers a save that waited for the write lock past busy_timeout, asking for it again', async () => {
    const { cookie } = await signedInDeveloper(t);
    const game = (await call(t.app, 'POST', '/api/games', { body: { name: 'Locked' }, cookie })).json();
    // Another process holds the write lock a little longer than the server's busy_timeout (5 s).
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const db = new (require('better-sqlite3'))(process.argv[1]); db.exec('begin immediate');
         console.log('held'); setTimeout(() => { db.exec('commit'); db.close(); }, 5300);`,
        file,
      ],
      { cwd: new URL('../..', import.meta.url).pathname, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    // Heard from the start: the holder may be gone before the save answers.
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    await new Promise((resolve) => holder.stdout!.once('data', resolve));
    const answer = await gameCall(t.app, 'POST', '/v1/leaderboards/main/scores', {
      apiKey: game.api_key,
      gameId: game.game_id,
      body: { player_name: 'patient', score: 1 },
    });
    await exited;
    expect(answer.statusCode).toBe(200);
    const stored = await t.database.db
      .selectFrom('scores')
      .select('id')
      .where('id', '=', answer.json().score_id)
      .execute();
    expect(stored).toHaveLength(1);
  }, 20_000);
});
