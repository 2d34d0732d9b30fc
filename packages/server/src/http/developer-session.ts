import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../modules/identity/service.js';
import type { Developers } from '../modules/developers/service.js';
import { AppError } from './errors.js';
import { noStore } from './security.js';

const SESSION_COOKIE = 'howl_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in developer, set by `requireDeveloper`. */
    developer?: SessionUser;
  }
}

export interface CookieSettings {
  secure: boolean;
  maxAgeSeconds: number;
}

export function setSessionCookie(reply: FastifyReply, token: string, settings: CookieSettings): void {
  noStore(reply).setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
    maxAge: settings.maxAgeSeconds,
  });
}

export function clearSessionCookie(reply: FastifyReply, settings: CookieSettings): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: settings.secure });
}

/** The developer whose live session the request carries, if any (for calls open to visitors too). */
export async function findDeveloper(developers: Developers, request: FastifyRequest): Promise<SessionUser | undefined> {
  const token = request.cookies[SESSION_COOKIE];
  return token ? developers.pool.authenticate(token) : undefined;
}

/** Answers (404 NotFound) unless the developer owns the game. */
export type OwnershipCheck = (developerId: string, gameId: string) => Promise<unknown>;

/**
 * The hook of every console route, run before validation (app.ts hands in the ownership check): 401 NotAuthorized unless the request
 * carries a live developer session, then, on a route with a `:gameId`, 404 unless that developer
 * owns the game. Another developer's game answers 404 whatever the body or query holds.
 */
export function requireDeveloper(developers: Developers, ownsGame?: OwnershipCheck) {
  return async (request: FastifyRequest): Promise<void> => {
    const session = await findDeveloper(developers, request);
    if (!session) throw new AppError(401, 'NotAuthorized', 'Please sign in.');
    request.developer = session;
    const { gameId } = (request.params ?? {}) as { gameId?: unknown };
    if (ownsGame && typeof gameId === 'string') await ownsGame(session.userId, gameId);
  };
}
