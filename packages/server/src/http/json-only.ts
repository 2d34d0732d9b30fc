import type { FastifyInstance } from 'fastify';
import { errorBody } from './errors.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Mutating console calls must say `Content-Type: application/json`: a cross-site HTML form cannot
 * send that, so a signed-in developer's cookie cannot be used by another site to post them.
 */
export function requireJsonOnConsoleMutations(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!MUTATING.has(request.method) || !request.url.startsWith('/api/')) return;
    const type = request.headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      return reply
        .status(415)
        .send(errorBody('UnsupportedMediaType', 'Send the request body as JSON with Content-Type: application/json.'));
    }
  });
}
