import { randomUUID } from 'node:crypto';
import { playerGame } from './players.js';
import { DIALECTS, REDIS_SKIP, services } from './services.js';
import type { Dialect } from '../../src/db/database.js';

/** Each database with the in-process index, and PostgreSQL with the Redis index too: an import's writes reach both. */
export const IMPORT_SETUPS = [
  ...DIALECTS.map((d) => ({ ...d, index: 'memory', redis: false })),
  ...DIALECTS.filter((d) => d.dialect === 'postgres').map((d) => ({
    ...d,
    skip: d.skip || REDIS_SKIP,
    index: 'redis',
    redis: true,
  })),
];

/** A signed-in developer whose games are made for importing, on one setup of IMPORT_SETUPS. */
export function importGames(dialect: Dialect, redis: boolean) {
  const players = playerGame(
    dialect,
    redis
      ? {
          redis,
          env: { RANK_INDEX: 'redis', REDIS_URL: services.redisUrl ?? '' },
          rankPrefix: `howl-test:${randomUUID()}`,
        }
      : {},
  );
  const { newGame, console: consoleCall, v1 } = players;

  const v1Of =
    (g: { game_id: string; api_key: string }) =>
    (method: 'GET' | 'POST' | 'PUT', url: string, opts: { body?: unknown } = {}) =>
      v1(method, url, { ...opts, apiKey: g.api_key, gameId: g.game_id });

  /** A new game with a board per save mode (besides `main`: keep, unlimited). */
  async function game() {
    const g = await newGame(`Import ${randomUUID().slice(0, 8)}`);
    await consoleCall('PUT', '/leaderboards/main', { max_entries: null }, g.game_id);
    for (const mode of ['highest', 'latest', 'accumulator'] as const) {
      await consoleCall('POST', '/leaderboards', { name: mode, insert_option: mode, max_entries: null }, g.game_id);
    }
    const read = (board: string) => v1Of(g)('GET', `/v1/leaderboards/${board}/scores?max=0`);
    return { ...g, importing: (body: unknown) => consoleCall('POST', '/import', body, g.game_id), read };
  }
  return { ...players, game, v1Of };
}
