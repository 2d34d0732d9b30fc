import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll } from 'vitest';
import type { Dialect } from '../../src/db/database.js';
import {
  call,
  gameCall,
  signedInDeveloper,
  startTestApp,
  STRONG_PASSWORD,
  type TestApp,
  type TestAppOptions,
} from './app.js';

type V1Options = Parameters<typeof gameCall>[3] & { token?: string };

/**
 * A running app with a signed-in developer and a game with player accounts on, for the player
 * suites (registers its own beforeAll/afterAll), and the calls they make again and again.
 */
export function playerGame(dialect: Dialect, options: Omit<TestAppOptions, 'dialect'> = {}) {
  const ctx = {} as { t: TestApp; cookie: string; game: { game_id: string; api_key: string } };
  beforeAll(async () => {
    // Tests move the clock by years to expire player sessions; the developer's own must outlive that.
    ctx.t = await startTestApp({ dialect, ...options, env: { DEVELOPER_SESSION_DAYS: '36500', ...options.env } });
    ctx.cookie = (await signedInDeveloper(ctx.t)).cookie;
    ctx.game = await newGame('Wolf Run');
  });
  afterAll(() => ctx.t?.close());

  /** Another game of the same developer, with player accounts on. */
  async function newGame(name: string, settings: Record<string, unknown> = {}) {
    const game = (await call(ctx.t.app, 'POST', '/api/games', { body: { name }, cookie: ctx.cookie })).json();
    if (!game.api_key) throw new Error(`game creation failed: ${JSON.stringify(game)}`);
    const set = await call(ctx.t.app, 'PUT', `/api/games/${game.game_id}/player-auth`, {
      body: { enabled: true, ...settings },
      cookie: ctx.cookie,
    });
    if (set.statusCode !== 200) throw new Error(`settings failed: ${set.body}`);
    return game as { game_id: string; api_key: string };
  }

  const console = (method: Parameters<typeof call>[1], path: string, body?: unknown, gameId?: string) =>
    call(ctx.t.app, method, `/api/games/${gameId ?? ctx.game.game_id}${path}`, {
      cookie: ctx.cookie,
      // Console mutations must be JSON (a cross-site form cannot send that), even without fields.
      ...(body === undefined && method !== 'GET' && method !== 'DELETE'
        ? { body: {} }
        : body === undefined
          ? {}
          : { body }),
    });
  const settings = (body: Record<string, unknown>, gameId?: string) => console('PUT', '/player-auth', body, gameId);

  const v1 = (method: Parameters<typeof gameCall>[1], url: string, opts: V1Options = {}) => {
    const { token, ...rest } = opts;
    return gameCall(ctx.t.app, method, url, {
      apiKey: ctx.game.api_key,
      gameId: ctx.game.game_id,
      ...rest,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...rest.headers },
    });
  };

  let n = 0;
  /** A fresh player name and its own inbox. */
  const fresh = (label = 'player') => {
    const name = `${label}-${process.pid}-${n++}`;
    return { name, email: `${name}@example.com` };
  };

  const register = (player_name: string, email: string | undefined, opts: V1Options = {}) =>
    v1('POST', '/v1/players', {
      ...opts,
      body: {
        player_name,
        ...(email === undefined ? {} : { email }),
        password: STRONG_PASSWORD,
        confirm_password: STRONG_PASSWORD,
      },
    });
  const login = (
    player_name: string,
    password = STRONG_PASSWORD,
    extra: Record<string, unknown> = {},
    opts: V1Options = {},
  ) => v1('POST', '/v1/players/login', { ...opts, body: { player_name, password, ...extra } });

  /** Registers, confirms (when a code was mailed) and logs a player in; answers the login's body. */
  async function loggedIn(label = 'player', extra: Record<string, unknown> = {}, opts: V1Options = {}) {
    const p = fresh(label);
    const reg = await register(p.name, p.email, opts);
    if (reg.statusCode !== 200) throw new Error(`register failed: ${reg.body}`);
    if (reg.json().confirmation_required) {
      await v1('POST', '/v1/players/confirm', {
        ...opts,
        body: { player_name: p.name, code: ctx.t.smtp.lastCode(p.email) },
      });
    }
    const res = await login(p.name, STRONG_PASSWORD, extra, opts);
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
    return { ...p, ...(res.json() as { access_token: string; saved_session?: { token: string; expires_at: string } }) };
  }

  /** The newest mail to an address, parsed. */
  async function lastMail(to: string, count = 1): Promise<ParsedMail> {
    const mails = await ctx.t.smtp.waitFor(to, count);
    return simpleParser(mails.at(-1)!.raw);
  }

  return { ctx, newGame, console, settings, v1, fresh, register, login, loggedIn, lastMail };
}
