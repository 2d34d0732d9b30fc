import type { LightMyRequestResponse } from 'fastify';
import { uniqueIp, type TestApp } from './app.js';

/** How each plugin line calls: 0.6.20 scores send the key and plugin version only; 0.9.x adds the game id and engine. */
const HEADERS = {
  '0.6': { 'x-sw-plugin-version': '0.6.20' },
  '0.9': { 'x-sw-plugin-version': '0.9.7', 'x-sw-godot-version': '4.6.3-stable (debian4.6.3+ds-3)' },
};
export type Line = keyof typeof HEADERS;

/** A call as the SilentWolf plugin of that line makes it, with the game's key. */
export function swCall(
  t: TestApp,
  game: { game_id: string; api_key: string },
  line: Line,
  method: 'GET' | 'POST',
  url: string,
  opts: { body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  return t.app.inject({
    method,
    url,
    remoteAddress: uniqueIp(),
    headers: {
      'x-api-key': game.api_key,
      ...HEADERS[line],
      ...(line === '0.9' ? { 'x-sw-game-id': game.game_id } : {}),
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...opts.headers,
    },
    ...(payload === undefined ? {} : { payload }),
  });
}
