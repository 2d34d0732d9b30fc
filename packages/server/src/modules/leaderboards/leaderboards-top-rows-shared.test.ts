import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import { insertDeveloperRow, keepAllBoard } from '../../../test/support/rank-indexes.js';
import { DIALECTS, REDIS_SKIP, services } from '../../../test/support/services.js';
import { startTcpProxy } from '../../../test/support/tcp-proxy.js';
import { createCaches, type Caches } from '../../lib/cache.js';
import { manualClock } from '../../lib/clock.js';
import { createLeaderboards } from './service.js';
import { sqlRankIndex } from '../ranking/rank-index.js';
import { redisRankIndex } from '../ranking/redis-index.js';
import { withTopRows } from '../ranking/top-rows.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Processes on one database, as services with caches and a Redis rank index of their own; each
// reaches Redis through a relay the test can cut, as an outage of that process's Redis would.
describe.skipIf(DIALECTS[1]!.skip || REDIS_SKIP)('postgres + redis: top rows kept by two processes', () => {
  const target = new URL(services.redisUrl ?? 'redis://x');
  const channel = `howl-test:${randomUUID()}`;
  const prefix = `howl-test:${randomUUID()}`;
  const clock = manualClock(Date.UTC(2026, 10, 1));
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  const proxies: Array<Awaited<ReturnType<typeof startTcpProxy>>> = [];
  const clients: Redis[] = [];
  const caches: Caches[] = [];
  let writer: Process;
  let reader: Process;

  interface Process {
    service: ReturnType<typeof createLeaderboards>;
    caches: Caches;
    redis: Redis;
    relay: Awaited<ReturnType<typeof startTcpProxy>>;
  }

  async function start(): Promise<Process> {
    const relay = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    proxies.push(relay);
    const redis = new Redis(`redis://127.0.0.1:${relay.port}`);
    // Its outages are the test's doing.
    redis.on('error', () => {});
    clients.push(redis);
    const kept = await createCaches({ redis, channel });
    caches.push(kept);
    const rankIndex = withTopRows(redisRankIndex(database.db, redis, { prefix }), {
      caches: kept,
      now: () => clock.now(),
    });
    return {
      service: createLeaderboards({ db: database.db, clock, rankIndex, caches: kept }),
      caches: kept,
      redis,
      relay,
    };
  }

  /** Cuts a process off Redis, or brings it back and waits until it is connected again. */
  async function outage(p: Process, down: boolean) {
    if (down) {
      await p.relay.down();
      for (let i = 0; p.redis.status === 'ready' && i < 100; i++) await pause(20);
      return;
    }
    await p.relay.up();
    for (let i = 0; p.redis.status !== 'ready' && i < 200; i++) await pause(50);
    await pause(300);
  }

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    await insertDeveloperRow(database.db, 'owner');
    await database.db
      .insertInto('games')
      .values({ id: 'game', owner_id: 'owner', name: 'g', api_key: 'k', created_at: 0 })
      .execute();
    writer = await start();
    reader = await start();
    await writer.service.create('game', keepAllBoard('b'));
    for (let i = 0; i < 20; i++) await writer.service.submit('game', 'b', { player_name: `p${i}`, score: i }, 4);
  });
  afterAll(async () => {
    for (const c of caches) await c.close();
    for (const c of clients) c.disconnect();
    for (const p of proxies) await p.close();
    await database?.close();
  });

  const top = async (p = reader) =>
    (await p.service.scores('game', 'b', { max: 3, period_offset: 0 })).scores.map((s) => s.score);
  const save = (score: number) => writer.service.submit('game', 'b', { player_name: `s${score}`, score }, 4);
  /** Asks twice: the second answer comes from the rows the reader keeps, if it keeps them. */
  const expectTop = async (scores: number[]) => {
    expect(await top()).toEqual(scores);
    expect(await top()).toEqual(scores);
  };

  it("shows the other process's save once its notice is heard", async () => {
    await expectTop([19, 18, 17]);
    await save(50);
    await reader.caches.heard();
    await expectTop([50, 19, 18]);
  });

  it('keeps nothing while it cannot hear the other process, and drops what it kept', async () => {
    await outage(reader, true);
    await save(60);
    await expectTop([60, 50, 19]);
    await save(70);
    await expectTop([70, 60, 50]);
    await outage(reader, false);
    await expectTop([70, 60, 50]);
    await save(80);
    await reader.caches.heard();
    await expectTop([80, 70, 60]);
  });

  it('sends what it saved while Redis was away once Redis is back', async () => {
    await outage(writer, true);
    // The save does not wait for Redis; the reader, still listening, has not heard of it yet.
    await save(90);
    await outage(writer, false);
    await reader.caches.heard();
    await expectTop([90, 80, 70]);
  });

  it('drops every kept board when a process starting up finds a write a stopped process left unfinished', async () => {
    await expectTop([90, 80, 70]);
    // A process stopped between its commit and its notices: the row is there, no notice went out,
    // and its mark of a write under way is left in Redis.
    const board = await database.db
      .selectFrom('leaderboards')
      .select('id')
      .where('name', '=', 'b')
      .executeTakeFirstOrThrow();
    await createLeaderboards({ db: database.db, clock, rankIndex: sqlRankIndex(database.db) }).submit(
      'game',
      'b',
      { player_name: 'unheard', score: 100 },
      4,
    );
    await writer.redis.zadd(`${prefix}:writing`, Date.now(), `${board.id}\u0000${randomUUID()}`);
    await expectTop([90, 80, 70]);
    const restarted = await start();
    expect(await restarted.service.warmUp()).toBe(1);
    await reader.caches.heard();
    await expectTop([100, 90, 80]);
  });
});
