import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_SKIP, services } from '../../../test/support/services.js';
import { encode, keyOfMember, storedMember } from './redis-members.js';
import { SCRIPTS, scriptKeys, type Scripts } from './redis-scripts.js';

// The rebuild's bulk save against the one-entry save it must agree with, on a real Redis: what a
// write saved meanwhile, a removal, a live set that exists, and a lock another rebuild took.
describe.skipIf(REDIS_SKIP)('redis: a rebuild saves many entries a call as one save each would', () => {
  let redis: Redis;
  let run: Scripts;
  beforeAll(() => {
    redis = new Redis(services.redisUrl!);
    for (const [name, lua] of Object.entries(SCRIPTS)) {
      redis.defineCommand(name, { numberOfKeys: scriptKeys(name), lua });
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

  it('saves a removed id only with its removal shown saved again, once, and never over a later removal', async () => {
    const keys = periodKeys();
    await redis.set(keys[3]!, 'mine'); // a set being built takes the saves
    const save = (revision: string, removal?: string) =>
      run.howlSave(
        ...keys,
        other,
        'x',
        revision,
        '5',
        `m-x-${revision}`,
        '0',
        '0',
        ...(removal === undefined ? [] : [removal]),
      );
    // The removal goes under both orders, as the index sends it.
    const other = `${keys[2]}:other`;
    await run.howlRemove(...keys, 'x', '1000', '0', '60000');
    await redis.zadd(other, '1000', 'x');
    // A notice of the removed id answers when it was removed, and saves nothing.
    expect(await save('0')).toBe('1000');
    expect(await redis.hgetall(keys[5]!)).toEqual({});
    // Shown saved again (that removal): saved, and the removal forgotten.
    expect(await save('0', '1000')).toBe(1);
    expect(await redis.zscore(keys[2]!, 'x')).toBeNull();
    expect(await redis.zscore(other, 'x')).toBeNull();
    expect(await redis.hgetall(keys[5]!)).toEqual({ x: '0|m-x-0' });
    // Another notice with the same removal finds it forgotten already: -1, nothing saved.
    expect(await save('3', '1000')).toBe(-1);
    expect(await redis.hgetall(keys[5]!)).toEqual({ x: '0|m-x-0' });
    // Removed again: the older removal shown saved again does not bring it back.
    await run.howlRemove(...keys, 'x', '2000', '0', '60000');
    await redis.zadd(other, '2000', 'x');
    expect(await save('0', '1000')).toBe('2000');
    expect(await redis.zscore(other, 'x')).toBe('2000');
    expect(await redis.hgetall(keys[5]!)).toEqual({});
  });

  it('keeps a newer revision a write saved meanwhile, replaces an older one, and never brings back a removed id', async () => {
    const keys = periodKeys();
    await run.howlSave(...keys, `${keys[2]}:other`, 'newer', '5', '1', 'm-newer-5', '0', '1');
    await run.howlSave(...keys, `${keys[2]}:other`, 'older', '1', '2', 'm-older-1', '0', '1');
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
    await redis.set(keys[3]!, 'mine');
    await run.howlLoad(...keys, 'mine', '60000', ...load, 'fresh', '0', '40', 'm-fresh-0');
    expect(await held(keys, 4, 5)).toEqual({
      set: ['m-newer-5', '1', 'm-older-2', '20', 'm-fresh-0', '40'],
      hash: { newer: '5|m-newer-5', older: '2|m-older-2', fresh: '0|m-fresh-0' },
    });
    // No live set: none is made.
    expect(await redis.exists(keys[0]!)).toBe(0);
  });

  it('stops a rebuild whose lock another rebuild has taken: no save, no set put in place, its lock kept', async () => {
    const keys = periodKeys();
    const resets = `${keys[0]}:resets`;
    await redis.set(keys[3]!, 'mine', 'PX', 60_000);
    await run.howlLoad(...keys, 'mine', '60000', 'a', '0', '1', 'm-a-0');
    expect(await redis.pttl(keys[3]!)).toBeGreaterThan(59_000);
    // The lock expired and another process's rebuild took it and started the set over.
    await redis.set(keys[3]!, 'theirs');
    await redis.del(keys[4]!, keys[5]!);
    await expect(run.howlLoad(...keys, 'mine', '60000', 'b', '0', '2', 'm-b-0')).rejects.toThrow(
      'the rebuild lost its lock',
    );
    expect(await run.howlReady(...keys, resets, '0', '0', 'mine')).toBe(0);
    await run.howlUnlock(...keys, 'mine');
    expect(await redis.get(keys[3]!)).toBe('theirs');
    expect(await redis.exists(keys[0]!, keys[4]!, keys[5]!)).toBe(0);
    // The holder's own calls go on, and it lets go of its lock.
    await run.howlLoad(...keys, 'theirs', '60000', 'b', '0', '2', 'm-b-0');
    expect(await run.howlReady(...keys, resets, '0', '0', 'theirs')).toBe(1);
    await run.howlUnlock(...keys, 'theirs');
    expect(await redis.exists(keys[3]!)).toBe(0);
    expect(await redis.zrange(keys[0]!, 0, -1)).toEqual(['', 'm-b-0']);
  });

  it('saves into the live set too when it exists, as a save does', async () => {
    const keys = periodKeys();
    await redis.zadd(keys[0]!, '-inf', '');
    await redis.set(keys[3]!, 'mine');
    await run.howlLoad(...keys, 'mine', '60000', 'a', '0', '1', 'm-a-0', 'b', '2', '2', 'm-b-2');
    expect(await held(keys, 0, 1)).toEqual({
      set: ['', '-inf', 'm-a-0', '1', 'm-b-2', '2'],
      hash: { a: '0|m-a-0', b: '2|m-b-2' },
    });
    expect(await held(keys, 4, 5)).toEqual({
      set: ['m-a-0', '1', 'm-b-2', '2'],
      hash: { a: '0|m-a-0', b: '2|m-b-2' },
    });
  });

  it("reads an entry's order key back exactly as saved, and nothing for a set not ready, an unknown or a removed id", async () => {
    for (const sort of ['asc', 'desc'] as const) {
      const keys = periodKeys();
      const entry = (id: string, score: number) => ({
        id,
        score,
        timestamp: 1_764_000_000_123,
        player_name: 'a player ü',
      });
      expect(await run.howlKeyOf(...keys, 'e0')).toBeNull();
      await redis.zadd(keys[0]!, '-inf', '');
      // Scores that decimal text does not hold exactly, both signs, both ends of a double's range.
      const scores = [0.1, -0.3, 1e300, -5e-324, 2 ** 53 + 2, 123_456_789.123_456_7, 0, -7];
      for (const [i, score] of scores.entries()) {
        const e = { ...entry(`e${i}`, score), revision: 0, engine: null };
        await run.howlSave(
          ...keys,
          `${keys[2]}:other`,
          e.id,
          '0',
          encode(e, sort).z,
          storedMember(e, sort, 0),
          '0',
          '0',
        );
      }
      for (const [i, score] of scores.entries()) {
        const [member, z] = (await run.howlKeyOf(...keys, `e${i}`)) as [string, string];
        expect(keyOfMember(sort, member, z)).toEqual(entry(`e${i}`, score));
      }
      expect(await run.howlKeyOf(...keys, 'unknown')).toBeNull();
      await run.howlRemove(...keys, 'e1', String(Date.now()), '0', '60000');
      expect(await run.howlKeyOf(...keys, 'e1')).toBeNull();
    }
  });
});
