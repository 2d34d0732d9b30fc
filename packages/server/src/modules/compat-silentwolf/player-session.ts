import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../players/service.js';

/**
 * The player session a SilentWolf call carries, as `/v1` reads it: Howl's own `Authorization: Bearer`
 * header when sent, else the token 0.9.x's login answered (`swtoken`), which it sends as
 * `x-sw-access-token`. An `Authorization` of another scheme (`Basic …`) carries no session.
 */
export function playerAuthorization(request: FastifyRequest): string | undefined {
  if (bearerToken(request.headers.authorization)) return request.headers.authorization;
  const token = request.headers['x-sw-access-token'];
  return typeof token === 'string' && token.trim() ? `Bearer ${token.trim()}` : undefined;
}
