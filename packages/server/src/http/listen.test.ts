import Fastify from 'fastify';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { listen } from './listen.js';

const hasIpv6Loopback = Object.values(networkInterfaces()).some((list) =>
  list?.some((a) => a.family === 'IPv6' && a.internal),
);

describe('listen', () => {
  const app = Fastify();
  app.get('/', async () => ({ ok: true }));
  afterEach(() => app.close());

  it.skipIf(!hasIpv6Loopback)('without HOST answers on IPv4 and on IPv6 loopback alike', async () => {
    await listen(app, 0, undefined);
    const { port } = app.server.address() as { port: number };
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    expect((await fetch(`http://[::1]:${port}/`)).status).toBe(200);
  });

  it('with HOST listens there only', async () => {
    const only = Fastify();
    only.get('/', async () => ({ ok: true }));
    await listen(only, 0, '127.0.0.1');
    const { port, address } = only.server.address() as { port: number; address: string };
    expect(address).toBe('127.0.0.1');
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    await only.close();
  });
});
