import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { uniqueIp } from '../support/app.js';
import type { Credentials } from './fixtures.js';
import type { Draft } from './requests.js';

/** A request as it goes on the wire. */
export interface Sent {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  payload: Buffer | undefined;
}

/** An answer, however it came back. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  ms: number;
}

/** Fills a draft with the fixture's real values and credentials. */
export function build(draft: Draft, c: Credentials): Sent {
  const real: Record<string, string[]> = {
    gameId: [c.gameId],
    name: c.boards,
    player: [c.playerName],
    playerName: [c.playerName],
    scoreId: [c.scoreId],
    character: [c.character],
  };
  const path = draft.op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const slot = draft.pathValues[name];
    if (slot && 'text' in slot) return slot.text;
    const values = real[name] ?? ['x'];
    return encodeURIComponent(values[(slot?.real ?? 0) % values.length]!);
  });
  const query = draft.query.map(([k, v]) => `${k}=${v}`).join('&');
  const headers: Record<string, string | string[]> = {};
  if (draft.contentType && draft.body.kind !== 'none') headers['content-type'] = draft.contentType;
  if (draft.gzip) headers['content-encoding'] = 'gzip';
  Object.assign(headers, credentialHeaders(draft, c));
  if (draft.oddHeader) headers[draft.oddHeader[0]] = draft.oddHeader[1];
  return { method: draft.method, url: query ? `${path}?${query}` : path, headers, payload: payloadOf(draft) };
}

function credentialHeaders(draft: Draft, c: Credentials): Record<string, string | string[]> {
  if (draft.credentials === 'missing') return {};
  const wrong = draft.credentials === 'wrong';
  const twice = <T extends string>(v: T) => (draft.credentials === 'doubled' ? [v, `${v}x`] : v);
  switch (draft.op.caller) {
    case 'developer':
      return { cookie: twice(`howl_session=${wrong ? 'nope' : c.cookie}`) };
    case 'silentwolf':
      return { 'x-api-key': twice(wrong ? 'nope' : c.apiKey), 'x-sw-game-id': c.gameId };
    case 'anyone':
      return {};
    default:
      return {
        'x-api-key': twice(wrong ? `${c.apiKey}0` : c.apiKey),
        'x-game-id': c.gameId,
        authorization: twice(`Bearer ${wrong ? 'nope' : c.playerToken}`),
      };
  }
}

function payloadOf(draft: Draft): Buffer | undefined {
  const body = draft.body;
  if (body.kind === 'none') return undefined;
  if (body.kind === 'raw') return body.bytes;
  if (body.kind === 'sized') return Buffer.from(`{"pad":"${'x'.repeat(Math.max(0, body.bytes - 10))}"}`);
  // JSON.stringify(undefined) is undefined: send nothing then.
  const text = JSON.stringify(body.value);
  return text === undefined ? undefined : Buffer.from(text);
}

/** Through `app.inject`, each request from its own address (so the per-IP limits stay out of the way). */
export async function inject(app: FastifyInstance, sent: Sent): Promise<Answer> {
  const started = performance.now();
  const res = await app.inject({
    method: sent.method as 'GET',
    url: sent.url,
    headers: sent.headers,
    ...(sent.payload ? { payload: sent.payload } : {}),
    remoteAddress: uniqueIp(),
  });
  return { status: res.statusCode, headers: res.headers, body: res.body, ms: performance.now() - started };
}

/** Over a real socket, written byte by byte as given, so Node's own HTTP parser meets the request too. */
export function overSocket(port: number, sent: Sent): Promise<Answer> {
  const started = performance.now();
  const lines = [`${sent.method} ${sent.url} HTTP/1.1`, 'host: 127.0.0.1', 'connection: close'];
  for (const [name, value] of Object.entries(sent.headers)) {
    for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
  }
  if (sent.payload) lines.push(`content-length: ${sent.payload.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    // The server may close before reading a body it refused: what it answered is what counts.
    socket.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ECONNRESET' || err.code === 'EPIPE' ? undefined : reject(err),
    );
    socket.on('close', () => {
      try {
        resolve({ ...parseResponse(Buffer.concat(chunks)), ms: performance.now() - started });
      } catch (err) {
        reject(err as Error);
      }
    });
    socket.write(sent.payload ? Buffer.concat([head, sent.payload]) : head);
  });
}

function parseResponse(raw: Buffer): Omit<Answer, 'ms'> {
  // An interim `100 Continue` (the request said Expect: 100-continue) comes before the answer.
  while (raw.subarray(0, 12).toString('latin1').startsWith('HTTP/1.1 1'))
    raw = raw.subarray(raw.indexOf('\r\n\r\n') + 4);
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0)
    throw new Error(`no complete answer on the socket: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`);
  const [statusLine, ...headerLines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked') body = unchunk(body);
  return { status: Number(statusLine!.split(' ')[1]), headers, body: body.toString('utf8') };
}

function unchunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
