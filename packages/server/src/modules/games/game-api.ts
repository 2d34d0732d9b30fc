import { errorResponse, pingResponse } from '@howl/contract';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, errorBody } from '../../http/errors.js';
import type { JsonApi } from '../../http/security.js';
import { ipBucket } from '../../lib/ip.js';
import { takeOrRefuse, type LimiterFactory } from '../../lib/rate-limits.js';
import { sameSecret } from '../../lib/tokens.js';
import type { GameRow } from './games.table.js';
import type { ClientVersions, Games } from './service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The game the call may act on: on `/v1` the one its key and id name (the front door), on `/api` the developer's own (`requireOwnerOnGameRoutes`). */
    game?: GameRow;
  }
}

/** Every `/v1` route declares this, so the reference at /api/docs sends the key and game id. */
export const GAME_API_SECURITY = [{ apiKey: [], gameId: [] }];

const GAME_API_HEADERS = [
  'x-api-key',
  'x-game-id',
  'x-howl-plugin-version',
  'x-howl-engine',
  'x-howl-game-version',
  'authorization',
  'content-type',
];
const VERSION = /^[0-9A-Za-z.+_-]{1,32}$/;
// Compared against when the game id is unknown, so a wrong id costs the same as a wrong key.
const NO_KEY = 'howl_0000000000000000000000000000000000000000000';

/** Another protocol games speak (the SilentWolf paths): which paths are its, and the headers its clients send. */
export interface OtherGameProtocol {
  matches: (path: string) => boolean;
  headers: string[];
}

/** Which requests are game calls, the headers every game answer carries, and what a preflight may ask for. */
export interface GameCalls extends JsonApi {
  allowedHeaders: string;
}

/**
 * Open CORS for the game API only (web-exported games send preflights with our headers); the console
 * API stays same-origin. The answer is the same for every origin, so it is written here rather than
 * with @fastify/cors, whose per-request options (it cannot tell game calls from console calls
 * otherwise) cost about 6 % of a game call's CPU. `headers` go out with the security headers, first
 * of all hooks, so that 404s and early refusals carry them too.
 */
export function gameCalls(other?: OtherGameProtocol): GameCalls {
  return {
    matches: (request) => isGameApiCall(request) || (other !== undefined && other.matches(pathOf(request))),
    headers: { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'Retry-After' },
    allowedHeaders: [...new Set([...GAME_API_HEADERS, ...(other?.headers ?? [])])].join(', '),
  };
}

/** Answers the CORS preflights of game calls; a bare OPTIONS there is refused. */
export function answerGameApiPreflights(app: FastifyInstance, calls: GameCalls): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'OPTIONS' || !calls.matches(request)) return done();
    // Answered here: the hooks after this one do not run.
    if (!request.headers.origin || !request.headers['access-control-request-method']) {
      return void reply
        .status(400)
        .send(
          errorBody(
            'InvalidParameter',
            'An OPTIONS request here is a CORS preflight: send Origin and Access-Control-Request-Method.',
          ),
        );
    }
    void reply
      .status(204)
      .header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE')
      .header('access-control-allow-headers', calls.allowedHeaders)
      .header('access-control-max-age', '86400')
      .header('content-length', '0')
      .send();
  });
}

/** A request's path: its matched route (`/%761/ping` is /v1/ping), else the path as sent (404s, preflights). */
function pathOf(request: FastifyRequest): string {
  const route = (request as { routeOptions?: { url?: string } }).routeOptions?.url;
  return route && route !== '*' ? route : (request.url ?? '');
}

/** Whether a request is for `/v1`. */
function isGameApiCall(request: FastifyRequest): boolean {
  return /^\/v1(\/|$|\?)/.test(pathOf(request));
}

/** Who a game call says it is: its key and game id, and the versions its plugin reports. */
export interface GameCaller {
  apiKey: string | undefined;
  gameId: string | undefined;
  pluginVersion: string | undefined;
  engine: string | undefined;
}

export interface GameDoorOptions {
  /** Reads the game of a call (kept in memory) and notes its clients' versions. */
  games: Pick<Games, 'find' | 'findKept' | 'noteClientVersions'>;
  limiters: LimiterFactory;
  requestsPerKeyPerMinute: number;
  requestsPerIpPerMinute: number;
}

/**
 * The checks every game call passes, whichever protocol it speaks (`/v1`, or the SilentWolf paths):
 * one set of limiters, so both count together. Both count in the process (lib/window-limits.ts), so
 * a call waits on no store for its limits; with Redis they are reconciled in the background.
 */
export function createGameDoor(opts: GameDoorOptions) {
  const perIp = opts.limiters.window({ name: 'v1-ip', points: opts.requestsPerIpPerMinute, durationSeconds: 60 });
  const perKey = opts.limiters.window({ name: 'v1-key', points: opts.requestsPerKeyPerMinute, durationSeconds: 60 });
  const take = (limiter: typeof perIp, key: string) =>
    takeOrRefuse(limiter, key, 'Too many requests. Please slow down and try again shortly.');

  return {
    /**
     * Counts the call against its network; first, so a flood of bad keys or unknown game ids (whose
     * absence is not cached) is refused before any database read.
     */
    limitIp: (request: FastifyRequest): void => take(perIp, ipBucket(request.ip)),

    /**
     * Checks the key against the game id (a constant-time comparison, the same cost for an unknown
     * id), then limits per game. Answers at once, with no promise, when the game is kept in memory
     * and its clients' versions need no note: the path of nearly every call.
     */
    admit(request: FastifyRequest, caller: GameCaller, missing: string): GameRow | Promise<GameRow> {
      if (!caller.apiKey || !caller.gameId) throw new AppError(403, 'InvalidApiKey', missing);
      const kept = opts.games.findKept(caller.gameId);
      if (kept) return admitted(request, kept, caller);
      return opts.games.find(caller.gameId).then((found) => admitted(request, found, caller));
    },
  };

  function admitted(
    request: FastifyRequest,
    found: GameRow | undefined,
    caller: GameCaller,
  ): GameRow | Promise<GameRow> {
    const matches = sameSecret(caller.apiKey!, found?.api_key ?? NO_KEY);
    if (!found || !matches) {
      throw new AppError(
        403,
        'InvalidApiKey',
        'This API key does not belong to this game id. Check both on your Howl dashboard.',
      );
    }
    take(perKey, found.id);
    const changes = clientVersionChanges(found, caller);
    if (!changes) return (request.game = found);
    return opts.games.noteClientVersions(found.id, changes).then(() => {
      // A copy: the row read is the one kept for every call.
      return (request.game = { ...found, ...changes });
    });
  }
}
export type GameDoor = ReturnType<typeof createGameDoor>;

export interface GameApiOptions {
  door: GameDoor;
  /** The game API's features; each registers its `/v1/…` routes behind the front door. */
  features: FastifyPluginAsync[];
}

/** `/v1`: every game call passes one front door that checks the key, limits the rate and notes the client's version. */
export const gameApi: FastifyPluginAsync<GameApiOptions> = async (v1, { door, features }) => {
  // Callback-style: a call whose game is kept passes with no promise made.
  v1.addHook('onRequest', (request, _reply, done) => {
    let admitted: GameRow | Promise<GameRow>;
    try {
      door.limitIp(request);
      const caller = {
        apiKey: header(request, 'x-api-key'),
        gameId: header(request, 'x-game-id'),
        pluginVersion: header(request, 'x-howl-plugin-version'),
        engine: header(request, 'x-howl-engine'),
      };
      admitted = door.admit(
        request,
        caller,
        'Send your API key in the x-api-key header and your game id in x-game-id.',
      );
    } catch (err) {
      return done(err as Error);
    }
    if (admitted instanceof Promise) admitted.then(() => done(), done);
    else done();
  });

  await v1.register(pingRoute);
  for (const feature of features) await v1.register(feature);
};

const pingRoute: FastifyPluginAsyncZod = async (v1) => {
  v1.get(
    '/v1/ping',
    {
      schema: {
        tags: ['game API'],
        summary: 'Check an API key and game id; answers the game',
        security: GAME_API_SECURITY,
        response: { 200: pingResponse, 403: errorResponse, 429: errorResponse },
      },
    },
    async (request) => ({ game_id: request.game!.id, name: request.game!.name }),
  );
};

export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/**
 * The newer plugin and engine versions a call reports than the game has seen, or undefined when
 * none: players on older builds do not move them back, and a write happens only when a newer
 * version first shows up.
 */
function clientVersionChanges(
  game: GameRow,
  { pluginVersion: plugin, engine }: GameCaller,
): ClientVersions | undefined {
  // The same version as stored (nearly every call) is settled without parsing it.
  const newer = (seen: string | undefined, stored: string | null): seen is string =>
    seen !== undefined &&
    seen !== stored &&
    VERSION.test(seen) &&
    (stored === null || compareVersions(seen, stored) > 0);
  const newPlugin = newer(plugin, game.latest_plugin_version);
  const newEngine = newer(engine, game.latest_engine);
  if (!newPlugin && !newEngine) return undefined;
  return {
    ...(newPlugin ? { latest_plugin_version: plugin } : {}),
    ...(newEngine ? { latest_engine: engine } : {}),
  };
}

/** Compares dotted versions part by part as numbers (`0.10.0` > `0.9.7`); trailing text breaks ties. */
function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/);
  const pb = b.split(/[.+-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '0';
    const y = pb[i] ?? '0';
    const diff = /^\d+$/.test(x) && /^\d+$/.test(y) ? Number(x) - Number(y) : x.localeCompare(y);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}
