import { afterAll, beforeAll, expect } from 'vitest';
import { createDatabase, type Database, type Dialect } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { call, signedInDeveloper, startTestApp, type TestApp } from './app.js';
import { freshDatabase } from './database.js';
import { startServerProcess } from './server-process.js';

export type ServerProcess = Awaited<ReturnType<typeof startServerProcess>>;

/** Limits out of the way: the burst measures durability, not refusals. */
const KILL_SERVER_ENV = {
  LOG_LEVEL: 'warn',
  RANK_INDEX: 'memory',
  GAME_API_REQUESTS_PER_KEY_PER_MINUTE: '100000000',
  GAME_API_REQUESTS_PER_IP_PER_MINUTE: '100000000',
  AUTH_REQUESTS_PER_IP_PER_MINUTE: '100000000',
};

/** One client writing under one name, one call at a time: its acknowledged calls are a prefix of what it sent. */
export interface BurstLane<Ack> {
  sent: number[];
  /** The answers of the acknowledged calls, in order (a prefix of `sent`). */
  acks: Ack[];
}

/**
 * Migrates the database at `url` and makes a developer and a game through the console API;
 * `setup` adds what the test writes to (its calls go under `gamePath`).
 */
export async function seedGame(
  dialect: Dialect,
  url: string,
  setup: (t: TestApp, gamePath: string, cookie: string) => Promise<void>,
): Promise<{ game_id: string; api_key: string }> {
  const database = createDatabase(url);
  await migrateToLatest(database);
  const t = await startTestApp({ dialect, database: { ...database, close: () => database.destroy() } });
  try {
    const { cookie } = await signedInDeveloper(t);
    const game = (await call(t.app, 'POST', '/api/games', { body: { name: 'Durable' }, cookie })).json();
    await setup(t, `/api/games/${game.game_id}`, cookie);
    return game;
  } finally {
    await t.close();
  }
}

/**
 * Runs every lane against the server (`next` picks a lane's next value, `send` makes the call)
 * until it is killed after `killAfter` acknowledgements; answers how many calls were in flight
 * then. Any answer but 2xx before the kill fails the test.
 */
async function writeUntilKilled<L extends BurstLane<unknown>>(
  server: ServerProcess,
  lanes: L[],
  calls: { next(lane: L): number; send(lane: L, value: number): Promise<Response>; killAfter: number },
): Promise<number> {
  let acked = 0;
  let killed = false;
  let inFlightAtKill = 0;
  const inFlight = new Set<L>();
  await Promise.all(
    lanes.map(async (lane) => {
      while (!killed) {
        const value = calls.next(lane);
        lane.sent.push(value);
        inFlight.add(lane);
        let res: Response;
        try {
          res = await calls.send(lane, value);
        } catch (err) {
          if (killed) return;
          throw err;
        }
        const body = await res.json().catch(() => undefined);
        // An answer that arrived is an acknowledgement, even one that crossed the kill.
        if (!res.ok || body === undefined) {
          if (killed) return;
          throw new Error(`${JSON.stringify(lane)}: ${res.status} ${JSON.stringify(body)}`);
        }
        inFlight.delete(lane);
        lane.acks.push(body);
        if (++acked === calls.killAfter) {
          inFlightAtKill = inFlight.size;
          killed = true;
          server.child.kill('SIGKILL');
        }
      }
    }),
  );
  await server.exited;
  return inFlightAtKill;
}

/**
 * A suite's database with a seeded game (made in its beforeAll; `setup` as for `seedGame`), and
 * the server process run on it; the afterAll stops the server and drops the database.
 */
export function killSuite(dialect: Dialect, setup: Parameters<typeof seedGame>[2]) {
  const ctx = {} as {
    url: string;
    game: { game_id: string; api_key: string };
    headers: Record<string, string>;
    server?: ServerProcess;
    database?: Database;
  };
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const fresh = await freshDatabase(dialect);
    drop = fresh.drop;
    ctx.url = fresh.url;
    ctx.game = await seedGame(dialect, fresh.url, setup);
    ctx.headers = { 'x-api-key': ctx.game.api_key, 'x-game-id': ctx.game.game_id, 'content-type': 'application/json' };
  });
  afterAll(async () => {
    await ctx.server?.stop();
    await ctx.database?.destroy();
    await drop?.();
  });
  return {
    ctx,
    /**
     * Starts the server, writes through `lanes` until it is killed (see `writeUntilKilled`), and
     * starts it again: answers the new server and the database, to compare with what was acknowledged.
     */
    async burst<L extends BurstLane<unknown>>(
      lanes: L[],
      calls: {
        next(lane: L): number;
        send(url: string): (lane: L, value: number) => Promise<Response>;
        killAfter: number;
      },
    ): Promise<{ server: ServerProcess; db: Database['db'] }> {
      ctx.server = await startServerProcess({ DATABASE_URL: ctx.url, ...KILL_SERVER_ENV });
      const inFlightAtKill = await writeUntilKilled(ctx.server, lanes, { ...calls, send: calls.send(ctx.server.url) });
      // Calls cut off by the kill: without them the test would prove nothing about unfinished commits.
      expect(inFlightAtKill).toBeGreaterThan(0);
      ctx.server = await startServerProcess({ DATABASE_URL: ctx.url, ...KILL_SERVER_ENV });
      ctx.database = createDatabase(ctx.url);
      return { server: ctx.server, db: ctx.database.db };
    },
  };
}

/** A player's own document as stored (no character), or undefined. */
export const storedDoc = (db: Database['db'], gameId: string, player: string) =>
  db
    .selectFrom('player_data')
    .select(['data', 'version'])
    .where('game_id', '=', gameId)
    .where('player_name', '=', player)
    .where('character_name', '=', '')
    .executeTakeFirst();
