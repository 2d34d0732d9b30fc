import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../test/support/database.js';
import { startServerProcess } from '../test/support/server-process.js';
import { services } from '../test/support/services.js';
import { startSmtpServer } from '../test/support/smtp.js';
import { createDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';

type Server = Awaited<ReturnType<typeof startServerProcess>>;
interface Answer {
  status: number;
  body: Record<string, unknown> & { error?: { code: string; message: string } };
  cookie: string | undefined;
}
interface Game {
  game_id: string;
  api_key: string;
}

/** Each game's key may make this many calls a minute, counted across the three processes. */
const KEY_LIMIT = 60;
const PASSWORD = 'Howl-Pass1';

/** One HTTP call to one process, as a client would make it. */
async function send(
  server: Server,
  method: string,
  path: string,
  opts: { body?: unknown; cookie?: string; game?: Game; token?: string } = {},
): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(opts.cookie ? { cookie: `howl_session=${opts.cookie}` } : {}),
      ...(opts.game ? { 'x-api-key': opts.game.api_key, 'x-game-id': opts.game.game_id } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    },
    ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => /^howl_session=([^;]*)/.exec(c)?.[1])
    .find(Boolean);
  return { status: res.status, body: (await res.json()) as Answer['body'], cookie };
}

/**
 * Asks until `ok(answer)` or 2 s pass. Another process hears a change through Redis pub/sub after
 * the request that made it was answered: within milliseconds, but not by the time the answer
 * arrives. A fixed sleep would be either slow or, on a loaded machine, too short.
 */
async function eventually(ask: () => Promise<Answer>, ok: (a: Answer) => boolean): Promise<Answer> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const answer = await ask();
    if (ok(answer) || Date.now() > deadline) return answer;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!services.postgresUrl || !services.redisUrl)(
  'three server processes on one PostgreSQL and Redis',
  () => {
    let fresh: Awaited<ReturnType<typeof freshDatabase>>;
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    const servers: Server[] = [];
    let cookie: string;

    beforeAll(async () => {
      fresh = await freshDatabase('postgres');
      const migrating = createDatabase(fresh.url);
      await migrateToLatest(migrating);
      await migrating.destroy();
      smtp = await startSmtpServer();
      const env = {
        DATABASE_URL: fresh.url,
        REDIS_URL: services.redisUrl!,
        SMTP_URL: smtp.url,
        LOG_LEVEL: 'warn',
        GAME_API_REQUESTS_PER_KEY_PER_MINUTE: String(KEY_LIMIT),
        // Every call comes from 127.0.0.1, and other suites may share this Redis: only the key limit is tested here.
        GAME_API_REQUESTS_PER_IP_PER_MINUTE: '1000000',
        AUTH_REQUESTS_PER_IP_PER_MINUTE: '1000000',
      };
      // One after another: three compiling at once on a small machine can outlast the start timeout.
      for (let i = 0; i < 3; i++) servers.push(await startServerProcess(env));
    }, 120_000);

    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await smtp?.close();
      await fresh?.drop();
    });

    /** A game made on one process, with player accounts turned on through another. */
    const newGame = async (name: string): Promise<Game> => {
      const game = (await send(servers[0]!, 'POST', '/api/games', { body: { name }, cookie })).body as unknown as Game;
      const auth = await send(servers[1]!, 'PUT', `/api/games/${game.game_id}/player-auth`, {
        body: { enabled: true },
        cookie,
      });
      expect(auth.status).toBe(200);
      return game;
    };

    it('a developer session made on one process works on the others, and a sign-out ends it on all', async () => {
      const email = `several.${process.pid}@example.com`;
      const signUp = await send(servers[0]!, 'POST', '/api/auth/sign-up', {
        body: { email, password: PASSWORD, firstName: 'A', lastName: 'Developer' },
      });
      expect(signUp.status).toBe(200);
      const confirm = await send(servers[1]!, 'POST', '/api/auth/confirm-sign-up', {
        body: { email, code: smtp.lastCode(email) },
      });
      expect(confirm.cookie).toBeDefined();
      cookie = confirm.cookie!;
      for (const server of servers) expect((await send(server, 'GET', '/api/games', { cookie })).status).toBe(200);

      const other = (await send(servers[2]!, 'POST', '/api/auth/sign-in', { body: { email, password: PASSWORD } }))
        .cookie!;
      expect((await send(servers[0]!, 'GET', '/api/games', { cookie: other })).status).toBe(200);
      expect((await send(servers[0]!, 'POST', '/api/auth/sign-out', { body: {}, cookie: other })).status).toBe(200);
      for (const server of servers.slice(1)) {
        const refused = await eventually(
          () => send(server, 'GET', '/api/games', { cookie: other }),
          (a) => a.status === 401,
        );
        expect(refused.status).toBe(401);
      }
      // Signing out ends every session of the developer: sign in again for the tests that follow.
      cookie = (await send(servers[1]!, 'POST', '/api/auth/sign-in', { body: { email, password: PASSWORD } })).cookie!;
    });

    it('a player session made on one process works on the others; a disable on one is refused by all', async () => {
      const game = await newGame('Players');
      const email = `wolf.${process.pid}@example.com`;
      const registered = await send(servers[2]!, 'POST', '/v1/players', {
        game,
        body: { player_name: 'wolf', email, password: PASSWORD, confirm_password: PASSWORD },
      });
      expect([registered.status, registered.body.error]).toEqual([200, undefined]);
      if (registered.body.confirmation_required) {
        const code = smtp.lastCode(email);
        const confirmed = await send(servers[1]!, 'POST', '/v1/players/confirm', {
          game,
          body: { player_name: 'wolf', code },
        });
        expect(confirmed.status).toBe(200);
      }
      const login = await send(servers[0]!, 'POST', '/v1/players/login', {
        game,
        body: { player_name: 'wolf', password: PASSWORD },
      });
      const token = login.body.access_token as string;
      for (const server of servers) {
        const me = await send(server, 'GET', '/v1/players/me', { game, token });
        expect([me.status, me.body.player_name]).toEqual([200, 'wolf']);
      }

      expect(
        (await send(servers[1]!, 'POST', `/api/games/${game.game_id}/players/wolf/disable`, { body: {}, cookie })).body,
      ).toEqual({ player_name: 'wolf', enabled: false });
      for (const server of servers) {
        const me = await eventually(
          () => send(server, 'GET', '/v1/players/me', { game, token }),
          (a) => a.status !== 200,
        );
        expect(me.body.error?.code).toBe('SessionExpired');
        const again = await send(server, 'POST', '/v1/players/login', {
          game,
          body: { player_name: 'wolf', password: PASSWORD },
        });
        expect([again.status, again.body.error?.code]).toEqual([403, 'PlayerDisabled']);
      }
    });

    it('a key rotated through one process is refused by the others, and the new key works on all', async () => {
      const game = await newGame('Rotation');
      // Every process has the old key in its cache.
      for (const server of servers) expect((await send(server, 'GET', '/v1/ping', { game })).status).toBe(200);
      const rotated = await send(servers[2]!, 'POST', `/api/games/${game.game_id}/api-key/rotate`, {
        body: {},
        cookie,
      });
      const next = { ...game, api_key: rotated.body.api_key as string };
      expect(next.api_key).not.toBe(game.api_key);
      for (const server of servers) {
        const old = await eventually(
          () => send(server, 'GET', '/v1/ping', { game }),
          (a) => a.status !== 200,
        );
        expect([old.status, old.body.error?.code]).toEqual([403, 'InvalidApiKey']);
        expect((await send(server, 'GET', '/v1/ping', { game: next })).status).toBe(200);
      }
    });

    it("counts a key's calls on all three processes against one limit", async () => {
      const game = await newGame('Limits');
      // The key's whole minute, spread evenly: each process alone has seen a third of it.
      for (let i = 0; i < KEY_LIMIT; i++) {
        expect((await send(servers[i % 3]!, 'GET', '/v1/ping', { game })).status, `call ${i}`).toBe(200);
      }
      // Each process counts in memory and learns the others' counts when it syncs with Redis (~100 ms
      // after its own hits, lib/window-limits.ts): until then it admits what it receives, here a call
      // every ~20 ms, so a handful more; counting alone it would admit two thirds of the limit more.
      for (const server of servers) {
        let admitted = 0;
        const refused = await eventually(
          async () => {
            const a = await send(server, 'GET', '/v1/ping', { game });
            if (a.status === 200) admitted++;
            return a;
          },
          (a) => a.status === 429,
        );
        expect([refused.status, refused.body.error?.code]).toEqual([429, 'LimitExceeded']);
        expect(admitted).toBeLessThan(KEY_LIMIT / 5);
      }
    });

    it('ranks and top lists are the same from every process after submits spread over the three', async () => {
      const game = await newGame('Ranks');
      const board = await send(servers[0]!, 'POST', `/api/games/${game.game_id}/leaderboards`, {
        body: { name: 'ranked', insert_option: 'highest', max_entries: null },
        cookie,
      });
      expect([board.status, board.body.error]).toEqual([201, undefined]);
      const scores = Array.from({ length: 24 }, (_, i) => ({ player_name: `p${i}`, score: (i * 37) % 101 }));
      const saved = await Promise.all(
        scores.map((body, i) => send(servers[i % 3]!, 'POST', '/v1/leaderboards/ranked/scores', { game, body })),
      );
      expect(saved.map((s) => s.status)).toEqual(scores.map(() => 200));

      const tops = await Promise.all(
        servers.map((s) => send(s, 'GET', '/v1/leaderboards/ranked/scores?max=0', { game })),
      );
      const expected = [...scores].sort((a, b) => b.score - a.score).map((s) => s.score);
      for (const top of tops) {
        const rows = top.body.scores as Array<{ score: number; position: number; player_name: string }>;
        expect(rows.map((r) => r.score)).toEqual(expected);
        expect(rows.map((r) => r.position)).toEqual(expected.map((_, i) => i + 1));
        expect(rows).toEqual(tops[0]!.body.scores);
      }
      const someIds = saved.filter((_, i) => i % 6 === 0).map((s) => s.body.score_id as string);
      for (const id of someIds) {
        const positions = await Promise.all(
          servers.map((s) => send(s, 'GET', `/v1/leaderboards/ranked/position?score_id=${id}`, { game })),
        );
        expect(new Set(positions.map((p) => p.body.position)).size, id).toBe(1);
        expect(positions[0]!.body.position).toBeGreaterThan(0);
      }
    });
  },
);
