import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import { insertDeveloperRow, keepAllBoard } from '../../../test/support/rank-indexes.js';
import { DIALECTS, REDIS_SKIP, services } from '../../../test/support/services.js';
import { manualClock } from '../../lib/clock.js';
import { createLeaderboards } from './service.js';
import { sqlRankIndex } from '../ranking/rank-index.js';
import { redisRankIndex } from '../ranking/redis-index.js';

// What the property suites do not see: a board's set as Redis holds it, and sets stored by an
// earlier release, whose members carry only the order.
describe.skipIf(DIALECTS[0]!.skip || REDIS_SKIP)('sqlite + redis: the rows a Redis index shows', () => {
  const prefix = `howl-test:${randomUUID()}`;
  const clock = manualClock(Date.UTC(2026, 10, 1));
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let redis: Redis;
  let index: ReturnType<typeof redisRankIndex>;
  let service: ReturnType<typeof createLeaderboards>;
  let truth: ReturnType<typeof createLeaderboards>;
  const ids: string[] = [];

  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    redis = new Redis(services.redisUrl!);
    await insertDeveloperRow(database.db, 'owner');
    await database.db
      .insertInto('games')
      .values({ id: 'game', owner_id: 'owner', name: 'g', api_key: 'k', created_at: 0 })
      .execute();
    index = redisRankIndex(database.db, redis, { prefix });
    service = createLeaderboards({ db: database.db, clock, rankIndex: index });
    truth = createLeaderboards({ db: database.db, clock, rankIndex: sqlRankIndex(database.db) });
    await service.create('game', keepAllBoard('b'));
    // The first read starts the set's build; SQL answers until it is in place.
    await service.scores('game', 'b', { max: 1, period_offset: 0 });
    await index.settled();
    for (let i = 0; i < 40; i++) {
      clock.advance(1);
      const metadata = i % 4 === 0 ? { level: i } : undefined;
      const engine = ([3, 4, null] as const)[i % 3]!;
      const saved = await service.submit('game', 'b', { player_name: `p${i}`, score: (i * 7) % 13, metadata }, engine);
      ids.push(saved.score_id);
    }
  });
  afterAll(async () => {
    await redis?.quit();
    await database?.close();
  });

  const members = async () => {
    const [key] = await redis.keys(`${prefix}:*:desc:z`);
    return { key: key!, members: await redis.zrange(key!, 0, -1) };
  };

  /** Every answer of the Redis index equals the SQL reference's. */
  async function expectAnswersAsStored() {
    const q = { period_offset: 0 };
    expect(await service.scores('game', 'b', { ...q, max: 0 })).toEqual(
      await truth.scores('game', 'b', { ...q, max: 0 }),
    );
    for (const score_id of ids.filter((_, i) => i % 5 === 0)) {
      expect(await service.around('game', 'b', { ...q, score_id, count: 3 })).toEqual(
        await truth.around('game', 'b', { ...q, score_id, count: 3 }),
      );
      expect(await service.position('game', 'b', { ...q, score_id })).toEqual(
        await truth.position('game', 'b', { ...q, score_id }),
      );
    }
    expect(await service.around('game', 'b', { ...q, score: 6, count: 4 })).toEqual(
      await truth.around('game', 'b', { ...q, score: 6, count: 4 }),
    );
  }

  it('stores with each member its revision and what its row shows, and answers from them', async () => {
    const { members: stored } = await members();
    // The marker, then every entry: the order, SOH, the revision, SOH, the 3 bits (4: has metadata).
    expect(stored).toHaveLength(41);
    const withBits = stored
      .slice(1)
      .filter((m) => /^[0-9a-f-]{36}\|\d+\|[0-4]$/.test(m.split('\u0000')[1]!.replaceAll('\u0001', '|')));
    expect(withBits).toHaveLength(40);
    expect(withBits.filter((m) => m.endsWith('\u00014'))).toHaveLength(10);
    await expectAnswersAsStored();
  });

  it('answers right from a set stored by an earlier release, whose members carry only the order', async () => {
    const { key, members: stored } = await members();
    const revisions = key.replace(/:z$/, ':rev');
    for (const member of stored.filter((m) => m.includes('\u0001'))) {
      const old = member.slice(0, member.indexOf('\u0001'));
      const score = (await redis.zscore(key, member))!;
      const id = old.slice(old.lastIndexOf('\u0000') + 1);
      const revision = member.split('\u0001')[1]!;
      await redis.multi().zrem(key, member).zadd(key, score, old).hset(revisions, id, `${revision}|${old}`).exec();
    }
    expect((await members()).members.filter((m) => m.includes('\u0001'))).toEqual([]);
    await expectAnswersAsStored();
    // A save replaces its entry's old member with one that carries its row.
    clock.advance(1);
    const { score_id } = await service.submit('game', 'b', { player_name: 'new', score: 5 }, 4);
    const [replaced, ...others] = (await members()).members.filter((m) => m.includes(score_id));
    expect(others).toEqual([]);
    expect(replaced!.replaceAll('\u0001', '|')).toMatch(/\|\d+\|2$/);
    ids.push(score_id);
    await expectAnswersAsStored();
  });
});
