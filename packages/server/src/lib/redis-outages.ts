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
