import { errorResponse } from '@howl/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RedisClient } from '../../lib/redis.js';
import { z } from 'zod';
import type { Database } from '../../db/database.js';
import { errorBody } from '../../http/errors.js';
import { withTimeout } from '../../lib/timeout.js';

/** A Redis command that waits longer than this calls Redis down. */
const REDIS_PING_TIMEOUT_MS = 2_000;

/**
 * `GET /healthz`, for load balancers, orchestrators and monitors: 200 while the database answers,
 * 503 naming what does not. Without Redis the server still answers every call (limits count in the
 * process, ranks come from the database), so Redis away is `degraded`, still 200: every process
 * shares one Redis, and a 503 would take them all out of a load balancer at once.
 */
export const healthRoutes: FastifyPluginAsyncZod<{ database: Database; redis?: RedisClient }> = async (
  app,
  { database, redis },
) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness, and whether the database and Redis can be reached',
        response: {
          200: z.object({
            status: z.enum(['ok', 'degraded']),
            database: z.enum(['sqlite', 'postgres']),
            redis: z.enum(['up', 'down']).optional().meta({ description: 'When Redis is configured.' }),
          }),
          503: errorResponse,
        },
      },
    },
    async (_request, reply) => {
      const [databaseUp, redisUp] = await Promise.all([database.ping(), redis ? pingRedis(redis) : true]);
      if (!databaseUp) {
        const down = redisUp ? 'The database' : 'The database and Redis';
        return reply.status(503).send(errorBody('ServiceUnavailable', `${down} cannot be reached.`));
      }
      return {
        status: redisUp ? ('ok' as const) : ('degraded' as const),
        database: database.dialect,
        ...(redis ? { redis: redisUp ? ('up' as const) : ('down' as const) } : {}),
      };
    },
  );
};

/** While ioredis reconnects, commands wait in its queue: a client that is not ready is down now. */
async function pingRedis(redis: RedisClient): Promise<boolean> {
  if (redis.status !== 'ready') return false;
  try {
    await withTimeout(redis.ping(), REDIS_PING_TIMEOUT_MS);
    return true;
  } catch {
    return false;
  }
}
