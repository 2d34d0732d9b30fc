import type { FastifyRequest } from 'fastify';

/**
 * The player session a SilentWolf call carries, as `/v1` reads it: 0.9.x sends the token its login
 * answered (`swtoken`) in `x-sw-access-token`; a call may also send Howl's own `Authorization` header.
 */
export function playerAuthorization(request: FastifyRequest): string | undefined {
  const token = request.headers['x-sw-access-token'];
  return typeof token === 'string' && token.trim() ? `Bearer ${token.trim()}` : request.headers.authorization;
}
