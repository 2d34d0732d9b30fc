import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import { insertDeveloperRow, keepAllBoard } from '../../../test/support/rank-indexes.js';
import { DIALECTS, REDIS_SKIP, services } from '../../../test/support/services.js';
import { startTcpProxy } from '../../../test/support/tcp-proxy.js';
import { createCaches, type Caches } from '../../lib/cache.js';
import { manualClock } from '../../lib/clock.js';
import { createLeaderboards } from '../leaderboards/service.js';
import { sqlRankIndex } from './rank-index.js';
import { withTopRows } from './top-rows.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Two processes on one database, as two services with caches of their own; `reader` reaches Redis
// through a relay the test cuts, as an outage of its subscriber would.
describe.skipIf(DIALECTS[1]!.skip || REDIS_SKIP)('postgres + redis: top rows kept by two processes', () => {
  const target = new URL(services.redisUrl ?? 'redis://x');
  const channel = `howl-test:${randomUUID()}`;
  const clock = manualClock(Date.UTC(2026, 10, 1));
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  const clients: Redis[] = [];
  const caches: Caches[] = [];
  let writer: ReturnType<typeof createLeaderboards>;
  let reader: ReturnType<typeof createLeaderboards>;
  let readerRedis: Redis;

  async function process(redis: Redis) {
    const kept = await createCaches({ redis, channel });
    caches.push(kept);
    return createLeaderboards({
      db: database.db,
      clock,
      rankIndex: withTopRows(sqlRankIndex(database.db), { caches: kept, now: () => clock.now() }),
      caches: kept,
    });
  }

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    await insertDeveloperRow(database.db, 'owner');
    await database.db
      .insertInto('games')
      .values({ id: 'game', owner_id: 'owner', name: 'g', api_key: 'k', created_at: 0 })
      .execute();
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    clients.push(new Redis(services.redisUrl!), new Redis(`redis://127.0.0.1:${proxy.port}`));
    readerRedis = clients[1]!;
    // Its outage is the test's doing.
    readerRedis.on('error', () => {});
    writer = await process(clients[0]!);
    reader = await process(readerRedis);
    await writer.create('game', keepAllBoard('b'));
    for (let i = 0; i < 20; i++) await writer.submit('game', 'b', { player_name: `p${i}`, score: i }, 4);
  });
  afterAll(async () => {
    for (const c of caches) await c.close();
    for (const c of clients) c.disconnect();
    await proxy?.close();
    await database?.close();
  });

  const top = async () => (await reader.scores('game', 'b', { max: 3, period_offset: 0 })).scores.map((s) => s.score);
  const save = (score: number) => writer.submit('game', 'b', { player_name: `s${score}`, score }, 4);

  it('shows what the other process saved, during an outage of its notices and after', async () => {
    expect(await top()).toEqual([19, 18, 17]);
    expect(await top()).toEqual([19, 18, 17]);
    await save(50);
    await caches[1]!.heard();
    expect(await top()).toEqual([50, 19, 18]);

    // The reader no longer hears the writer: it drops what it kept and keeps nothing until it hears again.
    await proxy.down();
    await pause(200);
    await save(60);
    expect(await top()).toEqual([60, 50, 19]);
    await save(70);
    expect(await top()).toEqual([70, 60, 50]);

    await proxy.up();
    for (let i = 0; readerRedis.status !== 'ready' && i < 100; i++) await pause(50);
    await pause(500);
    expect(await top()).toEqual([70, 60, 50]);
    expect(await top()).toEqual([70, 60, 50]);
    await save(80);
    await caches[1]!.heard();
    expect(await top()).toEqual([80, 70, 60]);
  });
});
