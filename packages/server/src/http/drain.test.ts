import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { trackConnections } from './drain.js';

/** A server whose `/slow` answers only when the test says, `/big` answers 16 MB, the rest at once. */
async function serve() {
  const held: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/slow') return void held.push(res);
    if (req.url === '/big') return void res.end(Buffer.alloc(16 * 1024 * 1024));
    res.end('ok');
  });
  const connections = trackConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { server, connections, held, port };
}

/** A raw keep-alive connection: what it has received, and whether the server has closed it. */
async function open(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  let closed = false;
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  socket.on('close', () => (closed = true));
  return {
    socket,
    send: (...paths: string[]) => socket.write(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: howl\r\n\r\n`).join('')),
    answers: () => received.split('HTTP/1.1 200').length - 1,
    closed: () => closed,
  };
}

const until = async (done: () => boolean) => {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(done()).toBe(true);
};
/** Lets the sockets' close events arrive. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('closeIdle on a drain', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
  });

  it('ends idle connections, and spares those answering, on a connection used again and with pipelined requests', async () => {
    const s = await serve();
    server = s.server;
    const idle = await open(s.port);
    idle.send('/');
    await until(() => idle.answers() === 1);
    const silent = await open(s.port);
    // Answered once, then a second request on the same connection still being answered.
    const reused = await open(s.port);
    reused.send('/');
    await until(() => reused.answers() === 1);
    reused.send('/slow');
    // Two pipelined requests: the first is slow, the second answered at once but queued behind it.
    const pipelined = await open(s.port);
    pipelined.send('/slow', '/');
    await until(() => s.held.length === 2);

    s.connections.closeIdle();
    await settle();
    expect([idle.closed(), silent.closed(), reused.closed(), pipelined.closed()]).toEqual([true, true, false, false]);

    s.held[0]!.end('ok');
    await until(() => reused.answers() === 2);
    s.connections.closeIdle();
    await settle();
    expect(reused.closed()).toBe(true);
    // Its second answer is still behind the first.
    expect(pipelined.closed()).toBe(false);

    s.held[1]!.end('ok');
    await until(() => pipelined.answers() === 2);
    s.connections.closeIdle();
    await settle();
    expect(pipelined.closed()).toBe(true);
  });

  it('spares a connection whose answer is written but not yet taken by its client', async () => {
    const s = await serve();
    server = s.server;
    const slowReader = await open(s.port);
    slowReader.socket.pause();
    slowReader.send('/big');
    await settle();
    s.connections.closeIdle();
    await settle();
    expect(slowReader.closed()).toBe(false);
    let bytes = 0;
    slowReader.socket.removeAllListeners('data');
    slowReader.socket.on('data', (d: Buffer) => (bytes += d.length));
    slowReader.socket.resume();
    await until(() => bytes > 16 * 1024 * 1024);
    await settle();
    s.connections.closeIdle();
    await settle();
    expect(slowReader.closed()).toBe(true);
  });
});
