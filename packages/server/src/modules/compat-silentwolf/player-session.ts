import type { FastifyRequest } from 'fastify';

/**
 * The player session a SilentWolf call carries, as `/v1` reads it: Howl's own `Authorization` header
 * when sent, else the token 0.9.x's login answered (`swtoken`), which it sends as `x-sw-access-token`.
 */
export function playerAuthorization(request: FastifyRequest): string | undefined {
  if (request.headers.authorization) return request.headers.authorization;
  const token = request.headers['x-sw-access-token'];
  return typeof token === 'string' && token.trim() ? `Bearer ${token.trim()}` : undefined;
}
