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
 * `GET /healthz`: 200 while the database (and Redis, when configured) answer; 503 naming what does
 * not, for load balancers and orchestrators. The process itself keeps running and reconnects.
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
          200: z.object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']) }),
          503: errorResponse,
        },
      },
    },
    async (_request, reply) => {
      const [databaseUp, redisUp] = await Promise.all([database.ping(), redis ? pingRedis(redis) : true]);
      if (databaseUp && redisUp) return { status: 'ok' as const, database: database.dialect };
      const down = !redisUp ? (!databaseUp ? 'The database and Redis' : 'Redis') : 'The database';
      return reply.status(503).send(errorBody('ServiceUnavailable', `${down} cannot be reached.`));
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
