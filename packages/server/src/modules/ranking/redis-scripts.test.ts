import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_SKIP, services } from '../../../test/support/services.js';
import { SCRIPTS, type Scripts } from './redis-scripts.js';

// The rebuild's bulk save against the one-entry save it must agree with, on a real Redis: what a
// write saved meanwhile, a removal, and a live set that exists.
describe.skipIf(REDIS_SKIP)('redis: a rebuild saves many entries a call as one save each would', () => {
  let redis: Redis;
  let run: Scripts;
  beforeAll(() => {
    redis = new Redis(services.redisUrl!);
    for (const [name, lua] of Object.entries(SCRIPTS)) {
      redis.defineCommand(name, { numberOfKeys: name === 'howlReady' ? 8 : 7, lua });
    }
    run = redis as unknown as Scripts;
  });
  afterAll(() => redis?.quit());

  /** A period's seven keys: live set and hash, removed ids, rebuild lock, rebuilt set and hash, generation. */
  const periodKeys = () => {
    const base = `howl-test:${randomUUID()}:{b}`;
    return ['z', 'rev', 'gone', 'building', 'z+', 'rev+', 'gen'].map((k) => `${base}:${k}`);
  };
  const held = async (keys: string[], set: number, hash: number) => ({
    set: await redis.zrange(keys[set]!, 0, -1, 'WITHSCORES'),
    hash: await redis.hgetall(keys[hash]!),
  });

  it('keeps a newer revision a write saved meanwhile, replaces an older one, and never brings back a removed id', async () => {
    const keys = periodKeys();
    await run.howlSave(...keys, 'newer', '5', '1', 'm-newer-5', '0', '1');
    await run.howlSave(...keys, 'older', '1', '2', 'm-older-1', '0', '1');
    await run.howlRemove(...keys, 'removed', String(Date.now()), '0', '60000');
    const load = [
      'newer',
      '3',
      '10',
      'm-newer-3',
      'older',
      '2',
      '20',
      'm-older-2',
      'removed',
      '1',
      '30',
      'm-removed-1',
    ];
    await run.howlLoad(...keys, ...load, 'fresh', '0', '40', 'm-fresh-0');
    expect(await held(keys, 4, 5)).toEqual({
      set: ['m-newer-5', '1', 'm-older-2', '20', 'm-fresh-0', '40'],
      hash: { newer: '5|m-newer-5', older: '2|m-older-2', fresh: '0|m-fresh-0' },
    });
    // No live set: none is made.
    expect(await redis.exists(keys[0]!)).toBe(0);
  });

  it('saves into the live set too when it exists, as a save does', async () => {
    const keys = periodKeys();
    await redis.zadd(keys[0]!, '-inf', '');
    await run.howlLoad(...keys, 'a', '0', '1', 'm-a-0', 'b', '2', '2', 'm-b-2');
    expect(await held(keys, 0, 1)).toEqual({
      set: ['', '-inf', 'm-a-0', '1', 'm-b-2', '2'],
      hash: { a: '0|m-a-0', b: '2|m-b-2' },
    });
    expect(await held(keys, 4, 5)).toEqual({
      set: ['m-a-0', '1', 'm-b-2', '2'],
      hash: { a: '0|m-a-0', b: '2|m-b-2' },
    });
  });
});
