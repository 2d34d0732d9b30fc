import { errorResponse } from '@howl/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database.js';
import { errorBody } from '../../http/errors.js';

/** `GET /healthz`: 200 while the database answers, 503 otherwise (for load balancers and orchestrators). */
export const healthRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness and database reachability',
        response: {
          200: z.object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']) }),
          503: errorResponse,
        },
      },
    },
    async (_request, reply) => {
      if (await database.ping()) return { status: 'ok' as const, database: database.dialect };
      return reply.status(503).send(errorBody('ServiceUnavailable', 'The database cannot be reached.'));
    },
  );
};
