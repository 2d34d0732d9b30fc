import type { FastifyBaseLogger } from 'fastify';
import type { RedisClient } from './redis.js';

/** Logs a lost Redis connection once per outage, and its return; ioredis reconnects by itself. */
export function reportRedisOutages(redis: RedisClient, log: FastifyBaseLogger): void {
  let down = false;
  // A listener also keeps ioredis from printing every failed reconnect as an unhandled error.
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    log.error({ err }, 'the Redis connection was lost; reconnecting');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info('the Redis connection is back');
  });
}

/**
 * What Redis holds on behalf of named things (a board's sorted sets) that fell behind the database
 * while Redis could not be told: such a name is not read from Redis until `repair` has put it
 * right, which runs as soon as Redis is back. Marks are per process: a process that lost Redis
 * alone repairs what it wrote meanwhile once it reaches Redis again.
 */
export function behindRedis(redis: RedisClient, repair: (name: string) => Promise<void>) {
  // Each name with a count of its marks: a mark made while its repair runs survives that repair.
  const behind = new Map<string, number>();
  let repairing = false;
  // Until the first connection is up, calls wait in the client's queue for it, as they always did.
  let connected = redis.status === 'ready';
  const reachable = () => redis.status === 'ready' || !connected;

  async function repairAll(): Promise<void> {
    for (const [name, marks] of [...behind]) {
      await repair(name);
      if (behind.get(name) === marks) behind.delete(name);
    }
  }

  function startRepair(): void {
    if (repairing || behind.size === 0 || redis.status !== 'ready') return;
    repairing = true;
    repairAll()
      .catch(() => undefined) // the next read or reconnection tries again
      .finally(() => {
        repairing = false;
        if (behind.size > 0) setTimeout(startRepair, 1000).unref();
      });
  }
  redis.on('ready', () => {
    connected = true;
    startRepair();
  });

  return {
    /** Redis has missed a change to `name`. */
    mark(name: string): void {
      behind.set(name, (behind.get(name) ?? 0) + 1);
    },
    /** Whether Redis can be asked about `name` now: reachable, and not behind for it. */
    usable(name: string): boolean {
      if (!reachable()) return false;
      if (!behind.has(name)) return true;
      startRepair();
      return false;
    },
    /** Whether Redis is reachable now (a call made otherwise waits for reconnection attempts, then fails). */
    reachable,
  };
}
