import { randomUUID } from 'node:crypto';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import { insertDeveloperRow } from '../../../test/support/rank-indexes.js';
import { CLUSTER_SKIP, useRedisCluster } from '../../../test/support/redis-cluster.js';
import { manualClock } from '../../lib/clock.js';
import { redisRankIndex } from '../ranking/redis-index.js';
import { createLeaderboards } from './service.js';

// The property suites run the Redis index on a cluster too (test/support/rank-indexes.ts); an index
// whose commands were refused there would still pass them on its SQL fallback, so here: the ranks
// come from sorted sets on the cluster, and each board's keys sit in one slot.
describe.skipIf(CLUSTER_SKIP)('sqlite + redis cluster: the rank index on three masters', () => {
  const started = useRedisCluster();
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let redis: Cluster;
  const prefix = `howl-test:${randomUUID()}`;
  const errors: unknown[] = [];
  let service: ReturnType<typeof createLeaderboards>;
  let rankIndex: ReturnType<typeof redisRankIndex>;

  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    redis = (await started().connect()) as Cluster;
    await insertDeveloperRow(database.db, 'owner');
    await database.db
      .insertInto('games')
      .values({ id: 'g', owner_id: 'owner', name: 'g', api_key: 'key-g', created_at: 0 })
      .execute();
    rankIndex = redisRankIndex(database.db, redis, { prefix, onError: (err) => errors.push(err) });
    service = createLeaderboards({ db: database.db, clock: manualClock(Date.UTC(2026, 2, 29)), rankIndex });
  });
  afterAll(async () => {
    await redis?.quit();
    await database?.close();
  });

  /** Every key under the test's prefix, from every master. */
  const allKeys = async () => (await Promise.all(redis.nodes('master').map((node) => node.keys(`${prefix}:*`)))).flat();

  it('answers ranks from sorted sets it rebuilt and kept in step, each board in one slot', async () => {
    const boards = ['first', 'second', 'third', 'fourth'];
    for (const name of boards) {
      await service.create('g', {
        name,
        insert_option: 'latest',
        sort: 'desc',
        max_entries: null,
        time_based: 'na',
        timezone: null,
      });
      for (const [player, score] of [
        ['a', 3],
        ['b', 5],
      ] as const) {
        await service.submit('g', name, { player_name: player, score }, null);
      }
      // The first read starts the rebuild; a save after it reaches the set by a script.
      await service.scores('g', name, { max: 1, period_offset: 0 });
      await rankIndex.settled();
      await service.submit('g', name, { player_name: 'c', score: 4 }, null);
    }

    for (const name of boards) {
      const page = await service.scores('g', name, { max: 10, period_offset: 0 });
      expect(page.scores.map((s) => [s.player_name, s.score])).toEqual([
        ['b', 5],
        ['c', 4],
        ['a', 3],
      ]);
    }
    const liveSets = (await allKeys()).filter((k) => k.endsWith(':desc:z'));
    expect(liveSets).toHaveLength(boards.length);
    // Three entries and the marker that says the set is complete.
    for (const key of liveSets) expect(await redis.zcard(key)).toBe(4);

    const slotsByBoard = new Map<string, Set<number>>();
    for (const key of await allKeys()) {
      const tag = /\{([^}]+)\}/.exec(key)?.[1];
      if (!tag) continue;
      const slot = Number(await redis.call('CLUSTER', 'KEYSLOT', key));
      slotsByBoard.set(tag, (slotsByBoard.get(tag) ?? new Set()).add(slot));
    }
    expect(slotsByBoard.size).toBe(boards.length);
    for (const slots of slotsByBoard.values()) expect(slots.size).toBe(1);
    expect(errors).toEqual([]);
  });

  it('forgets a wiped board on the cluster and rebuilds it', async () => {
    await service.wipe('g', 'first');
    await service.submit('g', 'first', { player_name: 'd', score: 1 }, null);
    await service.scores('g', 'first', { max: 1, period_offset: 0 });
    await rankIndex.settled();
    const page = await service.scores('g', 'first', { max: 10, period_offset: 0 });
    expect(page.scores.map((s) => s.player_name)).toEqual(['d']);
    const { id } = await database.db
      .selectFrom('leaderboards')
      .select('id')
      .where('name', '=', 'first')
      .executeTakeFirstOrThrow();
    const live = (await allKeys()).filter((k) => k.includes(`{${id}}`) && k.endsWith(':desc:z'));
    expect(live).toHaveLength(1);
    expect(await redis.zcard(live[0]!)).toBe(2);
    expect(errors).toEqual([]);
  });
});
