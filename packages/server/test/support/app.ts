import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { Dialect } from '../../src/db/database.js';
import { manualClock } from '../../src/lib/clock.js';
import { connectRedis, type RedisClient } from '../../src/lib/redis.js';
import { openSqliteFile, openTestDatabase } from './database.js';
import { services } from './services.js';
import { startSmtpServer } from './smtp.js';

export interface TestAppOptions {
  dialect: Dialect;
  env?: Record<string, string>;
  /** Use the Redis of TEST_REDIS_URL for rate limits. */
  redis?: boolean;
  /** Use the Redis at this address instead (a relay the test can take away). */
  redisUrl?: string;
  /** Use the Redis Cluster of these nodes instead (test/support/redis-cluster.ts). */
  redisCluster?: string[];
  /** Mail through a real SMTP server (default); false keeps the development outbox. */
  smtp?: boolean;
  /** Another app's database: two apps on one database stand for two server processes. */
  database?: Awaited<ReturnType<typeof openTestDatabase>>;
  /** SQLite in a file of its own rather than in memory: reads outside a transaction then have a connection of their own. */
  sqliteFile?: boolean;
  /** Redis key prefix of the rank index; apps that share it share their ranks. */
  rankPrefix?: string;
  /** The built site to serve; a stand-in with index.html and one asset by default. */
  webRoot?: string;
}

/** A fresh app on a fresh database with a real SMTP server and a clock the test moves. */
export async function startTestApp(options: TestAppOptions) {
  const database =
    options.database ??
    (options.sqliteFile && options.dialect === 'sqlite'
      ? await openSqliteFile()
      : await openTestDatabase(options.dialect));
  const smtp = await startSmtpServer();
  const clock = manualClock(Date.now());
  const redisUrl = options.redisUrl ?? (options.redis ? services.redisUrl! : undefined);
  const redis: RedisClient | undefined = options.redisCluster
    ? await connectRedis({ clusterNodes: options.redisCluster })
    : redisUrl
      ? new Redis(redisUrl)
      : undefined;
  const config: Config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ...(options.smtp === false ? {} : { SMTP_URL: smtp.url }),
    ...options.env,
  });
  const app = await buildApp({
    config,
    database,
    clock,
    redis,
    webRoot: options.webRoot ?? fakeWebRoot(),
    ...(options.rankPrefix ? { rankPrefix: options.rankPrefix } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    clock,
    smtp,
    config,
    async close() {
      await app.close();
      if (!options.database) await database.close();
      await smtp.close();
      await redis?.quit();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;

let webRoot: string | undefined;
/** A stand-in for the built site: index.html and one hashed asset, enough to test how paths are served. */
function fakeWebRoot(): string {
  if (!webRoot) {
    webRoot = mkdtempSync(join(tmpdir(), 'howl-web-'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Howl SPA</title><div id="root"></div>');
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(join(webRoot, 'assets', 'index-Bq3x9Zk1.js'), 'export {};');
  }
  return webRoot;
}

/** Sends a JSON call the way the site does: JSON body, optional session cookie, optional client IP. */
export function call(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  opts: { body?: unknown; cookie?: string; ip?: string } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    ...(opts.body === undefined
      ? {}
      : { payload: JSON.stringify(opts.body), headers: { 'content-type': 'application/json' } }),
    ...(opts.cookie ? { cookies: { howl_session: opts.cookie } } : {}),
    // Each call comes from its own IP unless the test names one, so only limit tests meet the per-IP limit.
    remoteAddress: opts.ip ?? uniqueIp(),
  });
}

/** The session token a response set, if any. */
export function sessionCookie(res: LightMyRequestResponse): string | undefined {
  return res.cookies.find((c) => c.name === 'howl_session')?.value || undefined;
}

let counter = 0;
/** A unique address per call, so tests sharing a Redis never share a rate-limit key. */
export function uniqueEmail(label = 'dev'): string {
  return `${label}.${process.pid}.${Date.now().toString(36)}.${counter++}@example.com`;
}

/** A random client IP per call, so the per-IP limit of one test never touches another's. */
export function uniqueIp(): string {
  return `10.${[...randomBytes(3)].join('.')}`;
}

export const STRONG_PASSWORD = 'Howl-Pass1';

/** Signs up and confirms a developer through the API; answers the email and the session cookie. */
export async function signedInDeveloper(t: TestApp, email = uniqueEmail()): Promise<{ email: string; cookie: string }> {
  const signUp = await call(t.app, 'POST', '/api/auth/sign-up', {
    body: { email, password: STRONG_PASSWORD, firstName: 'Indie', lastName: 'Developer' },
  });
  if (signUp.statusCode !== 200) throw new Error(`sign-up failed: ${signUp.body}`);
  const confirm = await call(t.app, 'POST', '/api/auth/confirm-sign-up', {
    body: { email, code: t.smtp.lastCode(email) },
  });
  const cookie = sessionCookie(confirm);
  if (!cookie) throw new Error(`confirmation failed: ${confirm.body}`);
  return { email, cookie };
}

/** A game API call with a key and game id. */
export function gameCall(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS',
  url: string,
  opts: { apiKey?: string; gameId?: string; headers?: Record<string, string>; body?: unknown; ip?: string } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    remoteAddress: opts.ip ?? uniqueIp(),
    headers: {
      ...(opts.apiKey ? { 'x-api-key': opts.apiKey } : {}),
      ...(opts.gameId ? { 'x-game-id': opts.gameId } : {}),
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...opts.headers,
    },
    ...(opts.body === undefined ? {} : { payload: JSON.stringify(opts.body) }),
  });
}
