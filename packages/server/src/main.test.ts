import { randomBytes } from 'node:crypto';
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
  body: { status?: string; database?: string; error?: { code: string; message: string } };
}

/** Asks /healthz until it answers `status` (a restarted service takes a moment to be re-reached). */
async function healthUntil(url: string, status: number, ms = 8_000): Promise<Health> {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await fetch(`${url}/healthz`);
    if (res.status === status || Date.now() > deadline)
      return { status: res.status, body: (await res.json()) as Health['body'] };
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
    expect(await healthUntil(server.url, 200)).toEqual({ status: 200, body: { status: 'ok', database: 'postgres' } });
  });

  it('/healthz names Redis while it is unreachable, and both when both are', async () => {
    await redisProxy.down();
    expect((await healthUntil(server.url, 503)).body.error?.message).toBe('Redis cannot be reached.');
    await pgProxy.down();
    const both = await healthUntil(server.url, 503);
    expect(both.body.error?.message).toBe('The database and Redis cannot be reached.');
    expect(server.child.exitCode).toBeNull();
    await pgProxy.up();
    await redisProxy.up();
    expect((await healthUntil(server.url, 200)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });
});
