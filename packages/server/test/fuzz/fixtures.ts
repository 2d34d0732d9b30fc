import { STRONG_PASSWORD, call, gameCall, signedInDeveloper, type TestApp } from '../support/app.js';
import type { Operation } from './requests.js';

/** What a request needs to get past the front door: a developer's cookie, a game and its key, a player's session. */
export interface Credentials {
  cookie: string;
  gameId: string;
  apiKey: string;
  playerName: string;
  playerToken: string;
  /** The game's boards: kept scores, an hourly one with periods, an unlimited accumulator, lowest first. */
  boards: string[];
  scoreId: string;
  character: string;
}

/**
 * Calls that use up what they are given (sign-out, game deletion, key rotation, player logout,
 * settings that would lock the others out): they get the spare credentials, renewed now and then.
 */
const SPENDING = new Set([
  'POST /api/auth/sign-out',
  'POST /api/auth/change-password',
  'DELETE /api/games/{gameId}',
  'POST /api/games/{gameId}/api-key/rotate',
  'PUT /api/games/{gameId}/player-auth',
  'PUT /api/games/{gameId}/player-auth/emails',
  'DELETE /api/games/{gameId}/leaderboards/{name}',
  'PUT /api/games/{gameId}/leaderboards/{name}',
  'DELETE /api/games/{gameId}/players/{playerName}',
  'POST /api/games/{gameId}/players/{playerName}/disable',
  'PUT /api/games/{gameId}/players/{playerName}/password',
  'POST /v1/players/logout',
]);

/** Renewing the spare costs a few password hashes: at most once per this many requests. */
const RENEW_EVERY = 1000;

/** The fuzzer's credentials: one set that always works, and a spare for the calls that spend theirs. */
export class Fixtures {
  private sent = 0;
  private renewedAt = 0;
  private spent = false;
  private renewing: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly t: TestApp,
    readonly main: Credentials,
    private spare: Credentials,
  ) {}

  static async create(t: TestApp): Promise<Fixtures> {
    const main = await credentials(t, (await signedInDeveloper(t)).cookie, 'main');
    const fixtures = new Fixtures(t, main, main);
    fixtures.spare = await fixtures.newSpare();
    return fixtures;
  }

  /** The credentials a request gets: by the method it is sent with, which may not be its operation's. */
  async for(op: Operation, method: string): Promise<Credentials> {
    this.sent++;
    if (!SPENDING.has(`${method} ${op.path}`)) return this.main;
    if (this.spent && this.sent - this.renewedAt >= RENEW_EVERY) {
      this.renewedAt = this.sent;
      this.spent = false;
      this.renewing = this.newSpare().then((spare) => (this.spare = spare));
    }
    await this.renewing;
    // The spare player session belongs to the main game.
    return op.path.startsWith('/v1/') ? { ...this.main, playerToken: this.spare.playerToken } : this.spare;
  }

  /** A spending request answered 2xx: what it was given may be gone. */
  markSpent(op: Operation, method: string): void {
    if (SPENDING.has(`${method} ${op.path}`)) this.spent = true;
  }

  /** Another developer (sign-out ends every session of one) with a game, and another session of the main player. */
  private async newSpare(): Promise<Credentials> {
    const spare = await credentials(this.t, (await signedInDeveloper(this.t)).cookie, 'spare');
    const login = await gameCall(this.t.app, 'POST', '/v1/players/login', {
      apiKey: this.main.apiKey,
      gameId: this.main.gameId,
      body: { player_name: this.main.playerName, password: STRONG_PASSWORD },
    });
    if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
    return { ...spare, playerToken: login.json().access_token };
  }
}

let n = 0;
/** A game with player accounts, a board with one score, one logged-in player with a character's data. */
async function credentials(t: TestApp, cookie: string, label: string): Promise<Credentials> {
  const game = (await call(t.app, 'POST', '/api/games', { body: { name: `Fuzz ${label}` }, cookie })).json();
  if (!game.api_key) throw new Error(`game creation failed: ${JSON.stringify(game)}`);
  const auth = await call(t.app, 'PUT', `/api/games/${game.game_id}/player-auth`, {
    body: { enabled: true, reg_type: 'un_pwd' },
    cookie,
  });
  if (auth.statusCode !== 200) throw new Error(`settings failed: ${auth.body}`);
  // A new game comes with `main`; the others are made here.
  const boards = [
    { name: 'hourly', time_based: 'hourly', timezone: 'Pacific/Chatham', insert_option: 'latest' },
    { name: 'total', insert_option: 'accumulator', max_entries: null },
    { name: 'fastest', insert_option: 'highest', sort: 'asc', max_entries: 1000 },
  ];
  for (const body of boards) {
    const made = await call(t.app, 'POST', `/api/games/${game.game_id}/leaderboards`, { body, cookie });
    if (made.statusCode !== 201) throw new Error(`board failed: ${made.body}`);
  }
  const board = 'main';
  const v1 = (method: 'GET' | 'POST' | 'PUT', url: string, body: unknown) =>
    gameCall(t.app, method, url, { apiKey: game.api_key, gameId: game.game_id, body });
  const playerName = `fuzz-${label}-${process.pid}-${n++}`;
  const reg = await v1('POST', '/v1/players', {
    player_name: playerName,
    password: STRONG_PASSWORD,
    confirm_password: STRONG_PASSWORD,
  });
  if (reg.statusCode !== 200) throw new Error(`register failed: ${reg.body}`);
  const login = await v1('POST', '/v1/players/login', { player_name: playerName, password: STRONG_PASSWORD });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const score = await v1('POST', `/v1/leaderboards/${board}/scores`, { player_name: playerName, score: 10 });
  if (score.statusCode !== 200) throw new Error(`score failed: ${score.body}`);
  const character = 'hero';
  await v1('PUT', `/v1/player-data/${playerName}/characters/${character}`, { player_data: { level: 1 } });
  return {
    cookie,
    gameId: game.game_id,
    apiKey: game.api_key,
    playerName,
    playerToken: login.json().access_token,
    boards: [board, ...boards.map((b) => b.name)],
    scoreId: score.json().score_id,
    character,
  };
}
