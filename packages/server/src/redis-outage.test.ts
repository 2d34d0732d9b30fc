import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../test/support/app.js';
import { freshDatabase } from '../test/support/database.js';
import { seedGame, type ServerProcess } from '../test/support/kill-burst.js';
import { startServerProcess } from '../test/support/server-process.js';
import { services } from '../test/support/services.js';
import { startTcpProxy } from '../test/support/tcp-proxy.js';
import { createDatabase, type Database } from './db/database.js';
import { compareEntries } from './modules/ranking/order.js';

const skip = !services.postgresUrl || !services.redisUrl;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks /healthz until it says Redis is `redis` (a relay brought back takes a moment to be re-reached). */
async function redisUntil(url: string, redis: 'up' | 'down'): Promise<void> {
  const deadline = Date.now() + 8_000;
  while (((await (await fetch(`${url}/healthz`)).json()) as { redis?: string }).redis !== redis) {
    if (Date.now() > deadline) throw new Error(`/healthz never said Redis is ${redis}`);
    await pause(100);
  }
}

describe.skipIf(skip)('postgres + redis: the Redis rank index while Redis goes away and comes back', () => {
  const target = new URL(services.redisUrl ?? 'redis://x');
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let server: ServerProcess;
  let game: { game_id: string; api_key: string };
  let headers: Record<string, string>;

  beforeAll(async () => {
    fresh = await freshDatabase('postgres');
    game = await seedGame('postgres', fresh.url, async (t, gamePath, cookie) => {
      const res = await call(t.app, 'POST', `${gamePath}/leaderboards`, {
        body: { name: 'outage', insert_option: 'keep', max_entries: null },
        cookie,
      });
      expect(res.statusCode).toBe(201);
    });
    headers = { 'x-api-key': game.api_key, 'x-game-id': game.game_id, 'content-type': 'application/json' };
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    database = createDatabase(fresh.url);
    server = await startServerProcess({
      DATABASE_URL: fresh.url,
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      RANK_INDEX: 'redis',
      LOG_LEVEL: 'warn',
      GAME_API_REQUESTS_PER_KEY_PER_MINUTE: '100000',
      GAME_API_REQUESTS_PER_IP_PER_MINUTE: '100000',
    });
  });

  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await database?.destroy();
    await fresh?.drop();
  });

  /** A game API call that must answer 200. */
  async function v1(method: string, path: string, body?: unknown) {
    const res = await fetch(`${server.url}/v1/leaderboards/outage${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as Record<string, unknown>;
    expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBe(200);
    return json;
  }

  /** The board as stored, best first. */
  async function stored() {
    const rows = await database.db
      .selectFrom('scores')
      .innerJoin('leaderboards', 'leaderboards.id', 'scores.leaderboard_id')
      .select(['scores.id', 'scores.player_name', 'scores.score', 'scores.timestamp'])
      .where('leaderboards.game_id', '=', game.game_id)
      .where('leaderboards.name', '=', 'outage')
      .execute();
    return rows
      .map((r) => ({ ...r, score: Number(r.score), timestamp: Number(r.timestamp) }))
      .sort((a, b) => compareEntries(a, b, 'desc'));
  }

  /** Saves `count` scores; each answered position must be the one its row takes in the database. */
  async function submit(count: number, tag: string) {
    for (let i = 0; i < count; i++) {
      const saved = await v1('POST', '/scores', {
        player_name: `${tag}${i}`,
        score: Math.floor(Math.random() * 1000),
      });
      const rows = await stored();
      expect(saved.position, `${tag}${i}`).toBe(rows.findIndex((r) => r.id === saved.score_id) + 1);
    }
  }

  /** Every position the server answers now equals the one computed from the stored rows. */
  async function expectRanksAsStored(when: string) {
    const rows = await stored();
    const top = (await v1('GET', '/scores?max=0')).scores as Array<Record<string, unknown>>;
    expect(
      top.map((s) => [s.score_id, s.position]),
      when,
    ).toEqual(rows.map((r, i) => [r.id, i + 1]));
    for (const [i, r] of rows.entries()) {
      expect((await v1('GET', `/position?score_id=${r.id}`)).position, `${when}: ${r.player_name}`).toBe(i + 1);
      const would = rows.filter((s) => s.score >= r.score).length + 1;
      expect((await v1('GET', `/position?score=${r.score}`)).position, `${when}: value ${r.score}`).toBe(would);
    }
  }

  it('answers every call while Redis is away and never a position the database disagrees with', async () => {
    await submit(15, 'before');
    await expectRanksAsStored('before the outage');
    // Give the index its chance to build, then check it again from Redis.
    await pause(500);
    await expectRanksAsStored('with the index built');

    await proxy.down();
    await redisUntil(server.url, 'down');
    await submit(15, 'during');
    await expectRanksAsStored('during the outage');

    await proxy.up();
    await redisUntil(server.url, 'up');
    // The sorted set left in Redis misses the writes of the outage: it must not be served.
    await expectRanksAsStored('as Redis comes back');
    await submit(5, 'after');
    await pause(500);
    await expectRanksAsStored('after Redis is back');
    expect(server.child.exitCode).toBeNull();
  }, 120_000);
});
