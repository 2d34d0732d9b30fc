import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../modules/identity/service.js';
import type { Developers } from '../modules/developers/service.js';
import { AppError } from './errors.js';
import { noStore } from './security.js';

export const SESSION_COOKIE = 'howl_session';

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

/** A hook (run before validation): 401 NotAuthorized unless the request carries a live developer session. */
export function requireDeveloper(developers: Developers) {
  return async (request: FastifyRequest): Promise<void> => {
    const session = await findDeveloper(developers, request);
    if (!session) throw new AppError(401, 'NotAuthorized', 'Please sign in.');
    request.developer = session;
  };
}
