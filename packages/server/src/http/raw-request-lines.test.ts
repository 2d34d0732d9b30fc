import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/app.js';
import { acceptRawRequestLines, RequestLines, rewriteRequestLine } from './raw-request-lines.js';

/** Sends bytes as they are and reads until the server closes (or `waitMs` passes): the raw answer text. */
function send(port: number, request: string | Buffer, waitMs = 1000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

/** Sends `parts` one TCP write at a time, `gapMs` apart (each read by the server on its own), then reads as `send` does. */
async function sendInTurns(port: number, parts: Buffer[], gapMs = 100): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise((resolve) => socket.once('connect', resolve));
  for (const part of parts) {
    if (socket.destroyed) break;
    socket.write(part);
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  socket.end();
  await closed;
  return text;
}

/** Each answer's status and body, in order. */
function answers(text: string): Array<{ status: number; body: string }> {
  return text
    .split(/(?=HTTP\/1\.1 \d{3} )/)
    .filter(Boolean)
    .map((answer) => ({ status: Number(answer.split(' ')[1]), body: answer.split('\r\n\r\n')[1] ?? '' }));
}

const port = (server: Server) => (server.address() as AddressInfo).port;
const godot = (line: string, headers = '') => Buffer.from(`${line} HTTP/1.1\r\nHost: howl\r\n${headers}\r\n`, 'utf8');

describe('rewriteRequestLine', () => {
  it.each([
    ['GET /a b/ü?x=<null> HTTP/1.1', 'GET /a%20b/%C3%BC?x=%3Cnull%3E HTTP/1.1'],
    ['GET /get_player_data/g1/HW Fox&Co ü HTTP/1.1', 'GET /get_player_data/g1/HW%20Fox&Co%20%C3%BC HTTP/1.1'],
    ['POST /a  b HTTP/1.0', 'POST /a%20%20b HTTP/1.0'],
    ['GET /a HTTP/1.1 HTTP/1.1', 'GET /a%20HTTP/1.1 HTTP/1.1'],
    ['GET /{"a"}|\\^` b HTTP/1.1', 'GET /%7B%22a%22%7D%7C%5C%5E%60%20b HTTP/1.1'],
    ['GET /50% ü HTTP/1.1', 'GET /50%%20%C3%BC HTTP/1.1'],
  ])('encodes %j', (line, expected) => {
    expect(rewriteRequestLine(Buffer.from(`${line}\r\n`))).toEqual(Buffer.from(`${expected}\r\n`));
  });

  it.each([
    ['an ordinary line', 'GET /v1/ping?x=1 HTTP/1.1\r\n'],
    ['brackets Node takes as they are', 'GET /a?x=<null>&y={} HTTP/1.1\r\n'],
    ['HTTP/1.0', 'GET / HTTP/1.0\r\n'],
  ])('leaves %s alone', (_what, line) => {
    expect(rewriteRequestLine(Buffer.from(line))).toBe('ordinary');
  });

  it.each([
    ['a bare LF', 'GET /a b HTTP/1.1\n'],
    ['a bare CR in the target', 'GET /a\rb c HTTP/1.1\r\n'],
    ['a NUL', 'GET /a\0 b HTTP/1.1\r\n'],
    ['a tab', 'GET /a\tb c HTTP/1.1\r\n'],
    ['a DEL', 'GET /a\x7f HTTP/1.1\r\n'],
    ['HTTP/2.0', 'GET /a b HTTP/2.0\r\n'],
    ['HTTP/1.2', 'GET /a b HTTP/1.2\r\n'],
    ['no version', 'GET /a b\r\n'],
    ['a method that is no token', 'G(T /a b HTTP/1.1\r\n'],
    ['no method', ' /a b HTTP/1.1\r\n'],
    ['an empty target', 'GET  HTTP/1.1\r\n'],
    ['a target that is not a path', 'GET  /a HTTP/1.1\r\n'],
    ['an absolute target', 'GET http://h/a b HTTP/1.1\r\n'],
  ])('leaves a line with %s to Node', (_what, line) => {
    expect(rewriteRequestLine(Buffer.from(line, 'latin1'))).toBe('foreign');
  });
});

describe('RequestLines', () => {
  const pipeline =
    'GET /a b HTTP/1.1\r\nHost: h\r\n\r\n' +
    'POST /p HTTP/1.1\r\nHost: h\r\ncontent-LENGTH:  32 \r\n\r\nGET /in body HTTP/1.1\r\nHost: h\r\n' +
    '\r\nGET /c ü HTTP/1.1\r\nHost: h\r\n\r\n';
  const rewritten = pipeline.replace('/a b', '/a%20b').replace('/c ü', '/c%20%C3%BC');

  it('rewrites each request line of a pipeline, never a body, whole or a byte at a time', () => {
    const bytes = Buffer.from(pipeline);
    expect(new RequestLines(16_384).feed(bytes).toString()).toBe(rewritten);
    const lines = new RequestLines(16_384);
    const out = [...bytes].map((byte) => lines.feed(Buffer.from([byte])));
    expect(Buffer.concat(out).toString()).toBe(rewritten);
  });

  it('hands ordinary bytes on as the same buffer', () => {
    const bytes = Buffer.from('GET /a HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}GET /b HTTP/1.1\r\n');
    expect(new RequestLines(16_384).feed(bytes)).toBe(bytes);
  });

  it.each([
    ['chunked', 'Transfer-Encoding: chunked'],
    ['another Transfer-Encoding', 'transfer-encoding: identity'],
    ['an upgrade', 'Upgrade: websocket'],
    ['two lengths', 'Content-Length: 0\r\nContent-Length: 0'],
    ['a length that is no number', 'Content-Length: 0x1'],
    ['obs-fold', 'X: a\r\n b'],
    ['a space before the colon', 'Content-Length : 0'],
    ['a bare LF', 'X: a\nY: b'],
    ['a bare CR', 'X: a\rContent-Length: 0'],
    ['a NUL', 'X: a\0'],
  ])('stops rewriting after a head with %s', (_what, header) => {
    const bytes = Buffer.from(`POST /p HTTP/1.1\r\n${header}\r\n\r\nGET /a b HTTP/1.1\r\n\r\n`);
    expect(new RequestLines(16_384).feed(bytes).toString()).toBe(bytes.toString());
  });

  it('stops rewriting after a CONNECT and after a line longer than the limit', () => {
    const connect = Buffer.from('CONNECT h:443 HTTP/1.1\r\n\r\nGET /a b HTTP/1.1\r\n\r\n');
    expect(new RequestLines(16_384).feed(connect)).toEqual(connect);
    const long = Buffer.from(`GET /${'a b'.repeat(20)} HTTP/1.1\r\n\r\n`);
    expect(new RequestLines(32).feed(long)).toEqual(long);
  });

  it('hands on a line still held back when the client stops sending', () => {
    const lines = new RequestLines(16_384);
    expect(lines.feed(Buffer.from('GET /a b HT')).length).toBe(0);
    expect(lines.end()?.toString()).toBe('GET /a b HT');
  });
});

describe('a server behind the layer', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    acceptRawRequestLines(app.server);
    app.get('/echo/:name', async (request) => ({
      name: (request.params as { name: string }).name,
      query: request.query,
    }));
    app.post('/echo/:name', async (request) => ({ body: request.body, ip: request.ip }));
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('serves a raw Godot line with its decoded path and query', async () => {
    const text = await send(port(app.server), godot('GET /echo/HW Fox&Co ü?x=<null>&y=é è', 'Connection: close\r\n'));
    expect(answers(text)).toEqual([
      { status: 200, body: JSON.stringify({ name: 'HW Fox&Co ü', query: { x: '<null>', y: 'é è' } }) },
    ]);
  });

  it('answers pipelined keep-alive requests in order, rewriting each line but not the body between', async () => {
    const body = '{"a":"GET /echo/x y HTTP/1.1"}';
    const text = await send(
      port(app.server),
      Buffer.concat([
        godot('GET /echo/a b'),
        godot('POST /echo/ü', `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`),
        Buffer.from(body),
        godot('GET /echo/c d', 'Connection: close\r\n'),
      ]),
    );
    expect(answers(text)).toEqual([
      { status: 200, body: JSON.stringify({ name: 'a b', query: {} }) },
      { status: 200, body: JSON.stringify({ body: JSON.parse(body), ip: '127.0.0.1' }) },
      { status: 200, body: JSON.stringify({ name: 'c d', query: {} }) },
    ]);
  });

  it('takes a raw line on a keep-alive connection after ordinary requests, and serves the ones after it', async () => {
    const text = await sendInTurns(port(app.server), [
      godot('GET /echo/plain'),
      godot('GET /echo/HW Fox ü'),
      godot('GET /echo/again'),
      godot('GET /echo/x y', 'Connection: close\r\n'),
    ]);
    expect(answers(text)).toEqual(
      ['plain', 'HW Fox ü', 'again', 'x y'].map((name) => ({ status: 200, body: JSON.stringify({ name, query: {} }) })),
    );
  });

  it('serves a raw line cut into reads after the byte Node refuses', async () => {
    const line = godot('GET /echo/a b?q=é', 'Connection: close\r\n');
    const cut = line.indexOf(' b') + 3;
    const text = await sendInTurns(port(app.server), [line.subarray(0, cut), line.subarray(cut)]);
    expect(answers(text)).toEqual([{ status: 200, body: JSON.stringify({ name: 'a b', query: { q: 'é' } }) }]);
  });

  // Node's parser has read the start of such a line in C++; what it refused is all there is to rewrite.
  it('refuses, as Node does, a raw line whose start came in an earlier read, or behind an ordinary request in one read', async () => {
    const line = godot('GET /echo/ab c', 'Connection: close\r\n');
    const split = await sendInTurns(port(app.server), [line.subarray(0, 8), line.subarray(8)]);
    expect(answers(split).map(({ status }) => status)).toEqual([400]);
    const behind = await send(port(app.server), Buffer.concat([godot('GET /echo/plain'), godot('GET /echo/a b')]));
    // Node drops the ordinary request's answer too, as it does with any refusal behind a request in flight.
    expect(answers(behind).map(({ status }) => status)).toEqual([400]);
  });
});

describe('a Node whose internals the layer does not find', () => {
  type Served = Socket & { listeners(event: 'end'): Array<(...args: unknown[]) => void> };
  const changes: Record<string, (socket: Served) => void> = {
    // A listener Node renamed: the layer must leave the connection alone, not serve it twice.
    'a renamed listener': (socket) => {
      const onEnd = socket.listeners('end').find((l) => l.name.endsWith('socketOnEnd'));
      socket.removeListener('end', onEnd!);
      socket.on('end', (...args: unknown[]) => onEnd!.apply(socket, args));
    },
    // A step of the hand-over that throws inside Node's parser callback must not end the process.
    'a step that throws': (socket) => {
      socket.setTimeout = () => {
        throw new Error('changed');
      };
    },
  };

  it.each(Object.keys(changes))('answers a raw line 400 with %s, and keeps serving', async (what) => {
    const server = createServer((request, response) => response.end(request.url));
    acceptRawRequestLines(server);
    server.on('connection', (socket: Served) => changes[what]!(socket));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const raw = await send(port(server), godot('GET /a b', 'Connection: close\r\n'));
      expect(answers(raw).map(({ status }) => status)).toEqual([400]);
      const plain = await send(port(server), godot('GET /a', 'Connection: close\r\n'));
      expect(answers(plain)).toEqual([{ status: 200, body: '/a' }]);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});

const smuggled = 'GET /smuggled ü HTTP/1.1\r\nHost: howl\r\n\r\n';
const post = (headers: string, body: string) => `POST /healthz HTTP/1.1\r\nHost: howl\r\n${headers}\r\n\r\n${body}`;
/** Classic request-smuggling payloads, each with a raw line behind it that the layer would rewrite if it lost track. */
const SMUGGLING: Array<[string, string]> = [
  ['CL.TE', post('Content-Length: 5\r\nTransfer-Encoding: chunked', `0\r\n\r\n${smuggled}`)],
  [
    'TE.CL',
    post(
      'Transfer-Encoding: chunked\r\nContent-Length: 3',
      `${smuggled.length.toString(16)}\r\n${smuggled}\r\n0\r\n\r\n`,
    ),
  ],
  [
    'TE.TE xchunked',
    post('Transfer-Encoding: chunked\r\nTransfer-Encoding: xchunked\r\nContent-Length: 5', `0\r\n\r\n${smuggled}`),
  ],
  ['TE.TE obs-fold', post('Content-Length: 5\r\nTransfer-Encoding:\r\n chunked', `0\r\n\r\n${smuggled}`)],
  ['TE.TE chunked, identity', post('Transfer-Encoding: chunked, identity', `0\r\n\r\n${smuggled}`)],
  ['a duplicate Content-Length', post('Content-Length: 0\r\nContent-Length: 5', `hello${smuggled}`)],
  ['a bare LF in the request line', `GET /healthz HTTP/1.1\nHost: howl\r\nContent-Length: 5\r\n\r\nhello${smuggled}`],
  ['a bare LF in a header', post('X: a\nContent-Length: 5', `hello${smuggled}`)],
  ['a bare CR in a header', post('X: a\rContent-Length: 5', `hello${smuggled}`)],
  ['a space before the colon', post('Content-Length : 5', `hello${smuggled}`)],
  ['a NUL in a header', post('X: a\0\r\nContent-Length: 5', `hello${smuggled}`)],
  ['a NUL in the request line', `GET /a\0 b HTTP/1.1\r\nHost: howl\r\n\r\n${smuggled}`],
  ['Transfer-Encoding: xchunked alone', post('Transfer-Encoding: xchunked', smuggled)],
];

describe('request smuggling through the layer', () => {
  /** Two plain servers, one behind the layer, noting the URLs they serve. */
  const servers = [false, true].map((layered) => {
    const seen: string[] = [];
    const server = createServer((request: IncomingMessage, response) => {
      seen.push(request.url ?? '');
      request.resume().on('end', () => response.end(request.url));
    });
    if (layered) acceptRawRequestLines(server);
    return { server, seen };
  });
  beforeAll(() =>
    Promise.all(servers.map(({ server }) => new Promise<void>((done) => server.listen(0, '127.0.0.1', done)))),
  );
  afterAll(() => Promise.all(servers.map(({ server }) => new Promise((done) => server.close(done)))));

  it.each([
    ...SMUGGLING,
    ['a raw line after a chunked body (not followed)', post('Transfer-Encoding: chunked', `0\r\n\r\n${smuggled}`)],
    ['an ordinary request and a raw line in one read', `GET /healthz HTTP/1.1\r\nHost: howl\r\n\r\n${smuggled}`],
    ['a 64 KB line', `GET /?q=${'a'.repeat(66_000)} HTTP/1.1\r\nHost: howl\r\n\r\n`],
    ['a 64 KB line with spaces', `GET /?q=${'a ü'.repeat(22_000)} HTTP/1.1\r\nHost: howl\r\n\r\n`],
  ])('answers %s exactly as Node does without it', async (_what, payload) => {
    const [plain, layered] = await Promise.all(
      servers.map(async ({ server, seen }) => {
        seen.length = 0;
        const text = await send(port(server), Buffer.from(payload, 'utf8'), 300);
        return { answers: answers(text.replace(/^Date: .*\r\n/gm, '')), seen: [...seen] };
      }),
    );
    expect(layered).toEqual(plain);
    expect(layered!.seen.join()).not.toMatch(/smuggled/);
  });
});

describe('sqlite: Howl behind the layer', () => {
  let t: TestApp;
  const seen: string[] = [];
  beforeAll(async () => {
    t = await startTestApp({ dialect: 'sqlite', smtp: false });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.app.server.on('request', (request: IncomingMessage) => seen.push(request.url ?? ''));
  });
  afterAll(() => t?.close());

  it('brings a raw Godot line to the game API, which answers it', async () => {
    const text = await send(
      port(t.app.server),
      godot('GET /v1/leaderboards/HW Fox ü/scores?x=<null>', 'Connection: close\r\n'),
    );
    const [answer] = answers(text);
    expect(answer?.status).toBe(403);
    expect(JSON.parse(answer!.body).error.code).toBe('InvalidApiKey');
  });

  it.each(SMUGGLING.filter(([what]) => !what.includes('alone')))(
    'refuses %s with 400 in the envelope, and nothing behind it reaches a route',
    async (_what, payload) => {
      seen.length = 0;
      const text = await send(port(t.app.server), Buffer.from(payload, 'utf8'));
      const replies = answers(text);
      expect(replies.map(({ status }) => status)).toEqual([400]);
      expect(JSON.parse(replies[0]!.body).error.code).toBe('InvalidParameter');
      expect(seen).toEqual([]);
    },
  );

  // The game API refuses a call without its key before reading the body: the rest of the body may arrive later.
  const scoreHead = (length: number) =>
    Buffer.from(
      `POST /v1/leaderboards/main/scores HTTP/1.1\r\nHost: howl\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
    );
  const statuses = (text: string) => answers(text).map(({ status }) => status);

  it('serves a raw line after a request answered before its body was read, once that body has come', async () => {
    const body = '{"player_name":"HW Fox","score":1}';
    const text = await sendInTurns(port(t.app.server), [
      Buffer.concat([scoreHead(Buffer.byteLength(body)), Buffer.from(body)]),
      godot('GET /v1/leaderboards/HW Fox/scores', 'Connection: close\r\n'),
    ]);
    expect(statuses(text)).toEqual([403, 403]);
  });

  it('never reads the tail of a body answered early as a request line: 400, as Node answers it', async () => {
    seen.length = 0;
    // The first 15 bytes are the body still owed; a request line that followed them would carry its headers off.
    const tail = Buffer.concat([
      Buffer.from('GET /v1/ping?x='),
      godot('GET /v1/leaderboards/HW Fox/scores', 'X-Api-Key: another-players-key\r\n'),
    ]);
    const text = await sendInTurns(port(t.app.server), [scoreHead(15), tail]);
    expect(statuses(text)).toEqual([403, 400]);
    expect(seen).toEqual(['/v1/leaderboards/main/scores']);
  });

  it('refuses a 64 KB line with 431 in the envelope, as before', async () => {
    const text = await send(port(t.app.server), `GET /v1/ping?q=${'a'.repeat(66_000)} HTTP/1.1\r\nHost: howl\r\n\r\n`);
    const replies = answers(text);
    expect(replies.map(({ status }) => status)).toEqual([431]);
    expect(JSON.parse(replies[0]!.body).error.code).toBe('HeadersTooLarge');
  });
});
