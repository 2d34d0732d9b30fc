import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../test/support/server-process.js';
import { services } from '../test/support/services.js';
import { startTcpProxy } from '../test/support/tcp-proxy.js';

const skip = !services.postgresUrl || !services.redisUrl;

async function admin(url: string, statement: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(statement, values)).rows;
  } finally {
    await client.end();
  }
}

interface Health {
  status: number;
  body: { status?: string; database?: string; redis?: string; error?: { code: string; message: string } };
}

/** Asks /healthz until it answers `status` (a restarted service takes a moment to be re-reached), and `seen` holds. */
async function healthUntil(
  url: string,
  status: number,
  seen: (body: Health['body']) => boolean = () => true,
  ms = 8_000,
): Promise<Health> {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await fetch(`${url}/healthz`);
    const body = (await res.json()) as Health['body'];
    if ((res.status === status && seen(body)) || Date.now() > deadline) return { status: res.status, body };
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(skip)('the server process when PostgreSQL or Redis goes away (restart, failover)', () => {
  const name = `howl_ops_${randomBytes(5).toString('hex')}`;
  const base = new URL(services.postgresUrl ?? 'postgres://x');
  const redisBase = new URL(services.redisUrl ?? 'redis://x');
  let pgProxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let redisProxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  const direct = () => Object.assign(new URL(base), { pathname: `/${name}` }).toString();

  beforeAll(async () => {
    await admin(base.toString(), `create database ${name}`);
    pgProxy = await startTcpProxy({ host: base.hostname, port: Number(base.port || 5432) });
    redisProxy = await startTcpProxy({ host: redisBase.hostname, port: Number(redisBase.port || 6379) });
    const viaProxy = Object.assign(new URL(base), { host: `127.0.0.1:${pgProxy.port}`, pathname: `/${name}` });
    // Its own application_name: the test terminates this server's connections and no one else's.
    viaProxy.searchParams.set('application_name', name);
    server = await startServerProcess({
      DATABASE_URL: viaProxy.toString(),
      REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
      RANK_INDEX: 'sql',
      AUTH_REQUESTS_PER_IP_PER_MINUTE: '1000',
    });
  });

  afterAll(async () => {
    await server?.stop();
    await pgProxy?.close();
    await redisProxy?.close();
    await admin(base.toString(), `drop database if exists ${name} with (force)`);
  });

  it('keeps answering after pg_terminate_backend ends its PostgreSQL connections', async () => {
    // Several requests at once leave several idle connections in the pool.
    await Promise.all(Array.from({ length: 8 }, () => fetch(`${server.url}/healthz`)));
    const killed = await admin(
      direct(),
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and application_name = $1`,
      [name],
    );
    expect(killed.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));

    expect(server.child.exitCode).toBeNull();
    expect((await healthUntil(server.url, 200)).status).toBe(200);
    const signUp = await fetch(`${server.url}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `${name}@example.com`, password: 'Howl-Pass1', firstName: 'A', lastName: 'B' }),
    });
    expect(signUp.status).toBe(200);
    expect(server.output()).toMatch(/database connection was lost/);
  });

  it('/healthz answers 503 naming the database while PostgreSQL is unreachable, and 200 once it is back', async () => {
    await pgProxy.down();
    const down = await healthUntil(server.url, 503);
    expect(down).toEqual({
      status: 503,
      body: { error: { code: 'ServiceUnavailable', message: 'The database cannot be reached.' } },
    });
    expect(server.child.exitCode).toBeNull();
    await pgProxy.up();
    expect(await healthUntil(server.url, 200)).toEqual({
      status: 200,
      body: { status: 'ok', database: 'postgres', redis: 'up' },
    });
  });

  it('/healthz stays 200 but says degraded while Redis alone is away (the server still answers), 503 when the database is too', async () => {
    await redisProxy.down();
    expect(await healthUntil(server.url, 200, (body) => body.redis === 'down')).toEqual({
      status: 200,
      body: { status: 'degraded', database: 'postgres', redis: 'down' },
    });
    await pgProxy.down();
    const both = await healthUntil(server.url, 503);
    expect(both.body.error?.message).toBe('The database and Redis cannot be reached.');
    expect(server.child.exitCode).toBeNull();
    await pgProxy.up();
    await redisProxy.up();
    expect((await healthUntil(server.url, 200, (body) => body.status === 'ok')).body.redis).toBe('up');
    expect(server.child.exitCode).toBeNull();
  });
});

/** A raw connection to the server, and everything it has received so far. */
async function rawConnection(url: string): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString()));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, received: () => received, closed };
}

/** Waits for `done()`, checking every 20 ms, for at most 5 s (a loaded machine may take a moment). */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`waited 5 s for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the server process on SIGTERM', () => {
  let dir: string;
  let server: Awaited<ReturnType<typeof startServerProcess>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'howl-shutdown-'));
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (name: string) =>
    (server = await startServerProcess({ DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}` }));

  it('exits 0 well within 2 s when idle, though clients hold connections open (the grace is 10 s)', async () => {
    const { url, child, exited } = await start('idle');
    // A keep-alive connection after its answer, one that never sent a byte (a preconnect), one mid-headers.
    const kept = await rawConnection(url);
    kept.socket.write('GET /healthz HTTP/1.1\r\nHost: howl\r\n\r\n');
    await until(() => kept.received().includes('"status":"ok"'), 'the health answer');
    const silent = await rawConnection(url);
    const halfSent = await rawConnection(url);
    halfSent.socket.write('GET /healthz HTTP/1.1\r\nHost: howl\r\n');

    const signalled = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(2_000);
    await Promise.all([kept.closed, silent.closed, halfSent.closed]);
  });

  it('answers the request in flight when the signal comes, then exits 0', async () => {
    const { url, child, exited, output } = await start('busy');
    const body = JSON.stringify({ email: 'drain@example.com', password: 'Howl-Pass1', firstName: 'A', lastName: 'B' });
    const request = await rawConnection(url);
    // The server answers "100 Continue" once it has the request: from then on it is in flight.
    request.socket.write(
      `POST /api/auth/sign-up HTTP/1.1\r\nHost: howl\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await until(() => request.received().includes('100 Continue'), '100 Continue');
    child.kill('SIGTERM');
    await until(() => output().includes('SIGTERM received, shutting down'), 'the drain to begin');
    request.socket.write(body);

    expect(await exited).toBe(0);
    expect(request.received()).toMatch(/HTTP\/1\.1 200 OK/);
  });
});

describe('the server process when it cannot start', () => {
  const refusal = (env: Record<string, string>) =>
    startServerProcess(env).then(
      async (server) => {
        server.child.kill('SIGTERM');
        return 'it started';
      },
      (err: Error) => err.message,
    );

  it('says in one line, with no stack, that the database of DATABASE_URL cannot be migrated (here: reached), and exits 1', async () => {
    const said = await refusal({ DATABASE_URL: 'postgres://howl:secret-password@127.0.0.1:1/howl' });
    expect(said).toMatch(/^the server exited with 1:\nCannot migrate the database of DATABASE_URL: .*ECONNREFUSED/);
    expect(said).not.toMatch(/\n\s+at |secret-password/);
  });

  it('says which address it could not listen on (HOST, PORT), and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'howl-host-'));
    try {
      const said = await refusal({ DATABASE_URL: `sqlite:${join(dir, 'howl.db')}`, HOST: 'no-such-host.invalid' });
      expect(said).toMatch(/^Cannot listen on no-such-host\.invalid, port 0 \(HOST, PORT\): E[A-Z]+$/m);
      expect(said).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the server process without a built web site', () => {
  it('says at start which WEB_ROOT has no site, and its pages say the site is not built', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'howl-noweb-'));
    const server = await startServerProcess({
      DATABASE_URL: `sqlite:${join(dir, 'howl.db')}`,
      WEB_ROOT: join(dir, 'no-such-folder'),
    });
    try {
      const warning = `no built web site in ${join(dir, 'no-such-folder')}`;
      await until(() => server.output().includes(warning), 'the warning');
      const page = await fetch(`${server.url}/dashboard/game`);
      expect([page.status, await page.text()]).toEqual([200, expect.stringContaining('has not been built')]);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
