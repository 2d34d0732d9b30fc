import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.js';
import { uniqueIp } from './app.js';

/**
 * Which plugin sends the call: the headers each puts on it (protocol note §2.1). `0.6.20-short` is
 * 0.6.20's score calls and `validate_remember_me`, which send only the key and the plugin version.
 */
export type SwClient = '0.9.7' | '0.6.20' | '0.6.20-short';

export interface SwGame {
  game_id: string;
  api_key: string;
}

/**
 * A call as the SilentWolf plugin sends it: 0.9.x puts the key, game id, plugin and engine versions
 * (and the tokens of its last login) on every call; 0.6.20 the same on account calls, only the key
 * and plugin version on its score calls and `validate_remember_me`. POST bodies carry `game_id` unless
 * the body names one (or `raw` is sent as it is).
 */
export function swCall(
  t: TestApp,
  game: SwGame,
  method: 'GET' | 'POST',
  url: string,
  opts: {
    body?: Record<string, unknown>;
    raw?: string;
    client?: SwClient;
    token?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<LightMyRequestResponse> {
  const client = opts.client ?? '0.9.7';
  const payload =
    opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify({ game_id: game.game_id, ...opts.body }));
  const godot4 = client === '0.9.7';
  const headers: Record<string, string> = {
    'x-api-key': game.api_key,
    'x-sw-plugin-version': godot4 ? '0.9.7' : '0.6.20',
    ...(client === '0.6.20-short'
      ? {}
      : {
          'x-sw-game-id': game.game_id,
          'x-sw-godot-version': godot4 ? '4.6.3-stable (official)' : '3.2.3-stable (official)',
        }),
    ...(opts.token ? { 'x-sw-id-token': opts.token, 'x-sw-access-token': opts.token } : {}),
    ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    ...opts.headers,
  };
  return t.app.inject({
    method,
    url,
    headers,
    remoteAddress: uniqueIp(),
    ...(payload === undefined ? {} : { payload }),
  });
}

/** A failure as the plugin reads it: `success: false` and a sentence in `error`. */
export function swFailure(res: LightMyRequestResponse, status: number, code: string) {
  const body = res.json() as { success: unknown; error: unknown; code: unknown };
  if (res.statusCode !== status || body.success !== false || typeof body.error !== 'string' || body.code !== code) {
    throw new Error(
      `expected ${status} ${code} with success:false and a string error, got ${res.statusCode} ${res.body}`,
    );
  }
  return body.error as string;
}
