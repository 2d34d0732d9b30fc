import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../modules/identity/service.js';
import type { Developers } from '../modules/developers/service.js';
import type { GameRow } from '../modules/games/games.table.js';
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

/**
 * The hook of every console route that needs a developer, run before validation: 401 NotAuthorized
 * unless the request carries a live developer session. A request that already passed it passes at once.
 */
export function requireDeveloper(developers: Developers) {
  return async (request: FastifyRequest): Promise<void> => {
    if (request.developer) return;
    const session = await findDeveloper(developers, request);
    if (!session) throw new AppError(401, 'NotAuthorized', 'Please sign in.');
    request.developer = session;
  };
}

/** The game's row when the developer owns it; throws 404 NotFound otherwise (a game that does not exist alike). */
export type OwnedGame = (developerId: string, gameId: string) => Promise<GameRow>;

/** A console route that names a game: its path is under `/api/` and has a `:gameId` segment. */
const namesAGame = (url: string) => url.startsWith('/api/') && url.split('/').includes(':gameId');

/**
 * Ownership, registered once on the root (app.ts) before any route: every console route whose path
 * names a `:gameId`, whichever module adds it, gets an onRequest hook that answers 401 NotAuthorized
 * without a live developer session, then 404 NotFound unless that developer owns the game, before
 * the body is read (an import's 20 MiB are its owner's alone) or anything is validated. The route
 * then finds the owned game's row in `request.game`, and the services it calls take that game as
 * already owned.
 */
export function requireOwnerOnGameRoutes(app: FastifyInstance, developers: Developers, ownedGame: OwnedGame): void {
  const signedIn = requireDeveloper(developers);
  const ownerOnly = async (request: FastifyRequest): Promise<void> => {
    await signedIn(request);
    const { gameId } = request.params as { gameId: string };
    request.game = await ownedGame(request.developer!.userId, gameId);
  };
  app.addHook('onRoute', (route) => {
    if (!namesAGame(route.url)) return;
    const own = [route.onRequest ?? []].flat();
    if (!own.includes(ownerOnly)) route.onRequest = [ownerOnly, ...own];
  });
}
