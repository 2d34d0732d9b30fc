import type { GameDetails, GamesResponse } from '@howl/contract';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { newApiKey, newGameId } from '../../lib/tokens.js';
import type { GameRow } from './games.table.js';
import { gameErrors } from './errors.js';
import * as store from './store.js';

/** How many games one developer may own. */
const MAX_GAMES_PER_DEVELOPER = 100;

/** The pool of a game's players in the identity module. */
export const playerPoolId = (gameId: string) => `game:${gameId}`;

export interface GamesDeps {
  db: Kysely<DB>;
  dialect: Dialect;
  clock: Clock;
  /** Writes what every new game starts with (the default leaderboard), in the game's transaction. */
  setUpGame(trx: Kysely<DB>, gameId: string, now: number): Promise<void>;
  /** Lets go of what is kept outside the database for the deleted game's boards (their rank index). */
  forgetBoards(boardIds: string[]): Promise<void>;
}

/** Games of a developer: create, list, switch, rename, delete, and their API keys. Every call checks ownership. */
export function createGames({ db, dialect, clock, setUpGame, forgetBoards }: GamesDeps) {
  async function owned(developerId: string, gameId: string, trx: Kysely<DB> = db): Promise<GameRow> {
    const game = await store.findOwnedGame(trx, developerId, gameId);
    if (!game) throw gameErrors.notFound();
    return game;
  }

  async function list(developerId: string): Promise<GamesResponse> {
    const [games, current] = await Promise.all([
      store.listGames(db, developerId),
      store.getCurrentGameId(db, developerId),
    ]);
    return {
      games: games.map((g) => ({ game_id: g.id, name: g.name, created_at: new Date(g.created_at).toISOString() })),
      current_game_id: current,
    };
  }

  return {
    list,
    /** The game's row when the developer owns it; 404 otherwise. */
    owned: (developerId: string, gameId: string) => owned(developerId, gameId),

    /** Creates a game with a fresh key and makes it the developer's current game. */
    async create(developerId: string, name: string): Promise<{ game_id: string; api_key: string }> {
      const game = {
        id: newGameId(),
        owner_id: developerId,
        name,
        api_key: newApiKey(),
        // Off until the developer allows it: the API key ships in every build of the game.
        allow_client_deletes: 0,
        created_at: clock.now(),
      };
      await db.transaction().execute(async (trx) => {
        await store.lockDeveloper(trx, developerId, dialect);
        if ((await store.countGames(trx, developerId)) >= MAX_GAMES_PER_DEVELOPER)
          throw gameErrors.limitReached(MAX_GAMES_PER_DEVELOPER);
        await store.insertGame(trx, game);
        await setUpGame(trx, game.id, game.created_at);
        await store.setCurrentGameId(trx, developerId, game.id);
      });
      return { game_id: game.id, api_key: game.api_key };
    },

    async get(developerId: string, gameId: string): Promise<GameDetails> {
      return toDetails(await owned(developerId, gameId));
    },

    async update(
      developerId: string,
      gameId: string,
      changes: { name?: string; allow_client_deletes?: boolean },
    ): Promise<GameDetails> {
      const game = await owned(developerId, gameId);
      const patch = {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.allow_client_deletes !== undefined
          ? { allow_client_deletes: changes.allow_client_deletes ? 1 : 0 }
          : {}),
      };
      await store.updateGame(db, gameId, patch);
      return toDetails({ ...game, ...patch });
    },

    async setCurrent(developerId: string, gameId: string): Promise<GamesResponse> {
      await db.transaction().execute(async (trx) => {
        await store.lockDeveloper(trx, developerId, dialect);
        await owned(developerId, gameId, trx);
        await store.setCurrentGameId(trx, developerId, gameId);
      });
      return list(developerId);
    },

    /** Deletes the game and all under it in one transaction; the current game becomes the newest remaining one, or none. */
    async remove(developerId: string, gameId: string): Promise<GamesResponse> {
      const boardIds = await db.transaction().execute(async (trx) => {
        await store.lockDeveloper(trx, developerId, dialect);
        await owned(developerId, gameId, trx);
        // Read before the delete: the foreign key clears current_game_id along with the game.
        const wasCurrent = (await store.getCurrentGameId(trx, developerId)) === gameId;
        await store.lockGameForDelete(trx, dialect, gameId);
        const deleted = await store.deleteGameAndData(trx, dialect, gameId, playerPoolId(gameId));
        if (wasCurrent) {
          const rest = await store.listGames(trx, developerId);
          await store.setCurrentGameId(trx, developerId, rest.at(-1)?.id ?? null);
        }
        return deleted;
      });
      await forgetBoards(boardIds);
      return list(developerId);
    },

    async apiKey(developerId: string, gameId: string): Promise<string> {
      return (await owned(developerId, gameId)).api_key;
    },

    /** Issues a new key; the old one stops working at once (every call checks the stored key). */
    async rotateApiKey(developerId: string, gameId: string): Promise<string> {
      await owned(developerId, gameId);
      const apiKey = newApiKey();
      await store.updateGame(db, gameId, { api_key: apiKey });
      return apiKey;
    },
  };
}

export type Games = ReturnType<typeof createGames>;

function toDetails(g: GameRow): GameDetails {
  return {
    game_id: g.id,
    name: g.name,
    created_at: new Date(g.created_at).toISOString(),
    player_auth_enabled: g.player_auth_enabled === 1,
    reg_type: g.reg_type,
    email_conf_enabled: g.email_conf_enabled === 1,
    latest_plugin_version: g.latest_plugin_version,
    latest_engine: g.latest_engine,
    allow_client_deletes: g.allow_client_deletes === 1,
  };
}
