import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.js';
import { parseClientJson } from '../../http/json-only.js';
import { header, type GameDoor } from '../games/game-api.js';
import { swErrorHandler } from './answers.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** A SilentWolf call's JSON body as sent: its digest is over the text, not the parsed value (digest.ts). */
    swRawBody?: string;
  }
}

/** The first path segment of every call the SilentWolf plugin makes (0.6.x and 0.9.x), served at the host root. */
export const SILENTWOLF_PATHS = new Set([
  'save_score',
  'post_new_score',
  'get_scores',
  'get_top_scores',
  'get_scores_by_player',
  'get_top_score_by_player',
  'get_score_position',
  'get_scores_around',
  'delete_score',
  'wipe_leaderboard',
  'create_new_player',
  'confirm_verif_code',
  'resend_conf_code',
  'login_player',
  'validate_remember_me',
  'request_player_password_reset',
  'reset_player_password',
  'get_player_details',
  'get_player_data',
  'push_player_data',
  'remove_player_data',
]);

/** The headers the plugin sends, which a web export's preflight asks for. */
export const SILENTWOLF_HEADERS = [
  'content-type',
  'x-api-key',
  'x-sw-game-id',
  'x-sw-plugin-version',
  'x-sw-godot-version',
  'x-sw-act-tmst',
  'x-sw-act-dig',
  'x-sw-id-token',
  'x-sw-access-token',
];

/** Whether a path (as sent, query included) is one of the plugin's. */
export function isSilentWolfPath(path: string): boolean {
  return SILENTWOLF_PATHS.has(path.split(/[/?#]/)[1] ?? '');
}

export interface SilentWolfApiOptions {
  door: GameDoor;
  /** The adapter's routes; each calls the services `/v1` calls. */
  features: FastifyPluginAsync[];
}

/**
 * The plugin names its game in one of four places depending on the call and the version (the
 * `x-sw-game-id` header, the path, the query, the body); each one sent must name the same game.
 */
function gameIdOf(request: FastifyRequest): string | undefined {
  const named = [
    header(request, 'x-sw-game-id'),
    (request.params as { gameId?: unknown } | undefined)?.gameId,
    (request.query as { game_id?: unknown } | undefined)?.game_id,
    (request.body as { game_id?: unknown } | null | undefined)?.game_id,
  ].filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  const ids = new Set(named.map((v) => v.trim()));
  if (ids.size > 1) {
    throw new AppError(403, 'InvalidApiKey', 'This request names two different game ids; send one.');
  }
  return [...ids][0];
}

/** `4.6.3-stable (debian…)` → `4.6.3`: the version part of Godot's version string. */
function engineVersion(value: string | undefined): string | undefined {
  return value?.match(/^\d+(\.\d+){0,3}/)?.[0];
}

/**
 * The SilentWolf paths: the same door as `/v1` (limits, key check, version notes) and answers the
 * plugin can read, errors included. The game id may be in the body, so the key is checked once it is parsed.
 */
export const silentWolfApi: FastifyPluginAsync<SilentWolfApiOptions> = async (sw, { door, features }) => {
  sw.setErrorHandler(swErrorHandler);
  // JSON bodies as everywhere else, with the text kept on the request for the digest check.
  parseClientJson(sw, (request, text) => {
    request.swRawBody = text;
  });
  sw.addHook('onRequest', async (request) => door.limitIp(request));
  sw.addHook('preValidation', async (request) => {
    const caller = {
      apiKey: header(request, 'x-api-key'),
      gameId: gameIdOf(request),
      // SilentWolf's own version (0.9.9) is not a Howl plugin version: kept, it would show on the
      // dashboard as Howl's and hold back the Howl plugin's 0.9.7 as older. The engine is the same either way.
      pluginVersion: undefined,
      engine: engineVersion(header(request, 'x-sw-godot-version')),
    };
    await door.admit(request, caller, 'Send your API key in the x-api-key header and your game id in the request.');
  });
  for (const feature of features) await sw.register(feature);
};
