import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedRedis } from '../../test/support/redis-cluster.js';
import { REDIS_SKIP, services } from '../../test/support/services.js';
import { startTcpProxy } from '../../test/support/tcp-proxy.js';
import type { RedisClient } from './redis.js';
import { windowLimiter, type WindowLimiterOptions } from './window-limits.js';

const MINUTE = 60_000;

/** A clock the test moves, starting at the beginning of a window so none ends mid-test. */
function windowClock() {
  let t = Math.ceil(Date.now() / MINUTE) * MINUTE;
  return {
    now: () => t,
    advance(ms: number) {
      t += ms;
    },
  };
}

/** How many of `n` hits of `key` a limiter admits. */
function admitted(limiter: ReturnType<typeof windowLimiter>, key: string, n: number): number {
  let count = 0;
  for (let i = 0; i < n; i++) if (limiter.take(key) === undefined) count++;
  return count;
}

describe('window limiter, one process without Redis', () => {
  it('admits exactly its points, then answers the milliseconds until the window ends', () => {
    const clock = windowClock();
    const limiter = windowLimiter({ name: 'solo', points: 5, durationSeconds: 60, now: clock.now });
    expect(admitted(limiter, 'a', 5)).toBe(5);
    clock.advance(15_000);
    expect(limiter.take('a')).toBe(45_000);
    // Another key has its own count.
    expect(limiter.take('b')).toBeUndefined();
  });

  it('starts every key at 0 in a new window', () => {
    const clock = windowClock();
    const limiter = windowLimiter({ name: 'solo', points: 3, durationSeconds: 60, now: clock.now });
    expect(admitted(limiter, 'a', 4)).toBe(3);
    clock.advance(MINUTE);
    expect(admitted(limiter, 'a', 4)).toBe(3);
  });
});

for (const shared of sharedRedis()) {
  describe.skipIf(shared.skip)(`window limiter, processes sharing ${shared.label}`, () => {
    let redis: RedisClient;
    beforeAll(async () => {
      redis = await shared.connect();
    });
    afterAll(() => redis?.quit());

    /** Two or more limiters on one Redis stand for processes; each test counts under a prefix of its own. */
    const processes = (n: number, opts: Partial<WindowLimiterOptions> = {}) => {
      const prefix = `howl:test-rl:${randomBytes(6).toString('hex')}`;
      const made = Array.from({ length: n }, () =>
        windowLimiter({ name: 'shared', points: 50, durationSeconds: 60, redis, prefix, syncMs: 10_000, ...opts }),
      );
      return { prefix, made };
    };

    it('refuses exactly at the points in one process, its hits reaching Redis', async () => {
      const clock = windowClock();
      const {
        prefix,
        made: [one],
      } = processes(1, { points: 10, now: clock.now });
      expect(admitted(one!, 'k', 6)).toBe(6);
      await one!.flush();
      expect(admitted(one!, 'k', 6)).toBe(4);
      await one!.flush();
      expect(await redis.get(`${prefix}:{shared:w${clock.now() / MINUTE}}:k`)).toBe('10');
      expect(one!.take('k')).toBeGreaterThan(0);
    });

    it('learns the other processes’ hits at each sync: two together stop within one sync’s hits each past the points', async () => {
      const clock = windowClock();
      const {
        made: [a, b],
      } = processes(2, { now: clock.now });
      // Each process takes 7 hits between syncs until both refuse.
      let total = 0;
      for (let round = 0; round < 10; round++) {
        total += admitted(a!, 'k', 7) + admitted(b!, 'k', 7);
        await Promise.all([a!.flush(), b!.flush()]);
      }
      expect(total).toBeGreaterThanOrEqual(50);
      expect(total).toBeLessThanOrEqual(50 + 2 * 7);
      expect([a!.take('k'), b!.take('k')].every((ms) => ms !== undefined)).toBe(true);
    });

    it('lets a process that has not yet heard of a spent key admit only until its next sync', async () => {
      const clock = windowClock();
      const {
        made: [a, b],
      } = processes(2, { points: 10, now: clock.now });
      expect(admitted(a!, 'k', 10)).toBe(10);
      await a!.flush();
      expect(b!.take('k')).toBeUndefined();
      await b!.flush();
      expect(b!.take('k')).toBeGreaterThan(0);
    });

    it('syncs by itself in the background', async () => {
      const {
        made: [a, b],
      } = processes(2, { points: 1000, syncMs: 20 });
      expect(admitted(a!, 'k', 1000)).toBe(1000);
      expect(b!.take('k')).toBeUndefined();
      // Waits for the syncs however busy the machine is (a full CI run on 2 cores took over 5 s on the
      // cluster); b's own calls meanwhile (at most 750) cannot spend the points.
      await expect.poll(() => b!.take('k'), { timeout: 15_000, interval: 20 }).toBeGreaterThan(0);
      await Promise.all([a!.close(), b!.close()]);
    });

    it('starts fresh in a new window on every process', async () => {
      const clock = windowClock();
      const {
        prefix,
        made: [a, b],
      } = processes(2, { points: 10, now: clock.now });
      expect(admitted(a!, 'k', 10)).toBe(10);
      await a!.flush();
      expect(admitted(b!, 'k', 1)).toBe(1);
      await b!.flush();
      expect(b!.take('k')).toBeDefined();
      clock.advance(MINUTE);
      expect(admitted(a!, 'k', 4) + admitted(b!, 'k', 4)).toBe(8);
      await Promise.all([a!.flush(), b!.flush()]);
      expect(await redis.get(`${prefix}:{shared:w${clock.now() / MINUTE}}:k`)).toBe('8');
      expect(await redis.pttl(`${prefix}:{shared:w${clock.now() / MINUTE}}:k`)).toBeLessThanOrEqual(2 * MINUTE);
    });

    it('sends the hits of many keys in one sync, each key counted apart', async () => {
      const clock = windowClock();
      const {
        prefix,
        made: [one],
      } = processes(1, { points: 10, now: clock.now });
      const keys = Array.from({ length: 40 }, (_, i) => `key-${i}`);
      keys.forEach((key, i) => expect(admitted(one!, key, (i % 3) + 1)).toBe((i % 3) + 1));
      await one!.flush();
      const stored = await Promise.all(
        keys.map((key) => redis.get(`${prefix}:{shared:w${clock.now() / MINUTE}}:${key}`)),
      );
      expect(stored).toEqual(keys.map((_, i) => String((i % 3) + 1)));
    });
  });
}

describe.skipIf(REDIS_SKIP)('window limiter while Redis is away', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(services.redisUrl!);
  });
  afterAll(() => redis?.quit());

  it('keeps limiting on its own while Redis is away, and sends the hits it kept once Redis is back', async () => {
    const target = new URL(services.redisUrl!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const viaProxy = new Redis({ host: '127.0.0.1', port: proxy.port, maxRetriesPerRequest: 1 });
    viaProxy.on('error', () => {});
    const errors: unknown[] = [];
    try {
      const clock = windowClock();
      const prefix = `howl:test-rl:${randomBytes(6).toString('hex')}`;
      const limiter = windowLimiter({
        name: 'shared',
        points: 5,
        durationSeconds: 60,
        redis: viaProxy,
        prefix,
        syncMs: 10_000,
        now: clock.now,
        onError: (err) => errors.push(err),
      });
      await viaProxy.ping();
      await proxy.down();
      expect(admitted(limiter, 'k', 3)).toBe(3);
      await limiter.flush();
      expect(errors.length).toBeGreaterThan(0);
      expect(admitted(limiter, 'k', 3)).toBe(2);
      await proxy.up();
      await viaProxy.ping();
      await limiter.flush();
      expect(await redis.get(`${prefix}:{shared:w${clock.now() / MINUTE}}:k`)).toBe('5');
      await limiter.close();
    } finally {
      viaProxy.disconnect();
      await proxy.close();
    }
  });
});
