import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { header } from '../games/game-api.js';

/**
 * The plugin's request digest (protocol note §2.2): MD5 of the player name, a value and
 * `x-sw-act-tmst`, with no secret, so anyone can forge it. A mismatch is only logged as a signal;
 * a request without the headers (other clients) is fine.
 */

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/**
 * The exact text of a top-level field's value in a JSON object's text (the body as sent), or
 * undefined. Walks the object's top level only; strings and nested values are skipped whole.
 */
export function rawJsonField(text: string, key: string): string | undefined {
  let i = text.indexOf('{');
  if (i < 0) return undefined;
  i++;
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const skipString = () => {
    for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    i++;
  };
  const skipValue = () => {
    let depth = 0;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') {
        skipString();
        if (depth === 0) return;
        continue;
      }
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        if (depth === 0) return;
        depth--;
        if (depth === 0) {
          i++;
          return;
        }
      } else if (depth === 0 && c === ',') return;
      i++;
    }
  };
  while (i < text.length) {
    skipSpace();
    if (text[i] !== '"') return undefined;
    const keyStart = i;
    skipString();
    const name = JSON.parse(text.slice(keyStart, i)) as unknown;
    skipSpace();
    if (text[i] !== ':') return undefined;
    i++;
    skipSpace();
    const start = i;
    skipValue();
    if (name === key) return text.slice(start, i).trim();
    skipSpace();
    if (text[i] !== ',') return undefined;
    i++;
  }
  return undefined;
}

/** The name as hashed: the body's own text first (before any normalising), then the name the route read. */
function nameCandidates(request: FastifyRequest, playerName: string): string[] {
  const raw = request.swRawBody === undefined ? undefined : rawJsonField(request.swRawBody, 'player_name');
  let sent: unknown;
  try {
    sent = raw === undefined ? undefined : JSON.parse(raw);
  } catch {
    sent = undefined;
  }
  return [...new Set([...(typeof sent === 'string' ? [sent] : []), playerName])];
}

function check(request: FastifyRequest, names: string[], values: string[]): void {
  const tmst = header(request, 'x-sw-act-tmst');
  const digest = header(request, 'x-sw-act-dig')?.toLowerCase();
  if (tmst === undefined || digest === undefined) return;
  if (names.some((n) => values.some((v) => md5(n + v + tmst) === digest))) return;
  request.log.info(
    {
      game: request.game?.id,
      path: request.routeOptions.url,
      pluginVersion: header(request, 'x-sw-plugin-version'),
    },
    'a SilentWolf request digest did not match',
  );
}

/** A saved score's digest: the score as its JSON text, as JavaScript prints it, and as Godot 4 prints a whole float (`12.0`). */
export function noteScoreDigest(request: FastifyRequest, playerName: string, score: number): void {
  const raw = request.swRawBody === undefined ? undefined : rawJsonField(request.swRawBody, 'score');
  const values = [
    ...(raw === undefined ? [] : [raw]),
    String(score),
    ...(Number.isInteger(score) ? [`${score}.0`] : []),
  ];
  check(request, nameCandidates(request, playerName), values);
}

/** Pushed player data's digest: the exact JSON text of `player_data` in the body, which is what the plugin hashed. */
export function notePlayerDataDigest(request: FastifyRequest, playerName: string): void {
  const raw = request.swRawBody === undefined ? undefined : rawJsonField(request.swRawBody, 'player_data');
  check(request, nameCandidates(request, playerName), raw === undefined ? [] : [raw]);
}
