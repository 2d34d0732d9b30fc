import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Howl } from './howl.js';

/**
 * A server that misbehaves by path prefix, used as a plugin's `base_url` (see e2e/engines.md), plus
 * `/code/<email>`: the last 6-digit code Howl mailed to that address through the test's SMTP server.
 */
export async function startFaults(howl: Howl) {
  const sockets = new Set<Socket>();
  const seen429 = new Set<string>();
  /** Every bearer token an engine sent here, so the runner can check none was printed. */
  const tokens = new Set<string>();

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  async function mailCode(req: IncomingMessage, res: ServerResponse, target: string) {
    const url = new URL(target, 'http://faults');
    const email = decodeURIComponent(url.pathname.slice('/code/'.length));
    // `?min=N` waits (up to 5 s) until N mails reached the address: a resend's mail comes after its answer.
    const min = Number(url.searchParams.get('min') ?? '1');
    const mine = () => howl.smtp.messages.filter((m) => m.to.includes(email)).length;
    const deadline = Date.now() + 5000;
    while (mine() < min && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    try {
      json(res, 200, { code: howl.smtp.lastCode(email), count: mine() });
    } catch {
      json(res, 404, { error: { code: 'NotFound', message: `no code was mailed to ${email}` } });
    }
  }

  const server = createServer((req, res) => {
    const target = req.url ?? '/';
    const auth = req.headers.authorization;
    if (auth?.startsWith('Bearer ')) tokens.add(auth.slice('Bearer '.length));
    // Read the whole request first, as a real server would, then misbehave.
    req.resume();
    req.on('end', () => {
      const prefix = target.split('/')[1]?.split('?')[0] ?? '';
      switch (prefix) {
        case '500':
          res.writeHead(500, { 'content-type': 'text/plain' });
          return res.end('Internal Server Error');
        case '500json':
          return json(res, 500, { error: { code: 'InternalError', message: 'Something went wrong on our side.' } });
        case 'nonjson':
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end('<html><body>Welcome to nginx!</body></html>');
        case 'empty':
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '0' });
          return res.end();
        case 'hang':
          return; // accepted and read, never answered
        case '429': {
          const path = target.split('?')[0]!;
          if (!seen429.has(path)) {
            seen429.add(path);
            res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
            return res.end(JSON.stringify({ error: { code: 'LimitExceeded', message: 'Too many requests.' } }));
          }
          // Whether the retry carried a player's token (never the token: answers may be printed).
          return json(res, 200, { game_id: 'retry', name: 'retried', bearer: auth?.startsWith('Bearer ') ?? false });
        }
        case 'echo':
          return json(res, 200, { path: target, headers: req.headers });
        case 'code':
          return void mailCode(req, res, target);
        default:
          return json(res, 404, { error: { code: 'NotFound', message: `no fault at ${target}` } });
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  // A port that was free a moment ago and is closed again: connecting to it is refused.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const deadPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));

  return {
    url: `http://127.0.0.1:${port}`,
    deadUrl: `http://127.0.0.1:${deadPort}`,
    tokens,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type Faults = Awaited<ReturnType<typeof startFaults>>;
