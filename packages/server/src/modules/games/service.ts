import type { GameDetails, GamesResponse } from '@howl/contract';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { noCaches, type Caches } from '../../lib/cache.js';
import type { Clock } from '../../lib/clock.js';
import { newApiKey, newGameId } from '../../lib/tokens.js';
import type { GameRow } from './games.table.js';
import { gameErrors } from './errors.js';
import * as store from './store.js';

/** The player settings kept on a game's row (the players module reads them from the row and saves them here). */
export type PlayerSettingsRow = Partial<
  Pick<
    GameRow,
    | 'player_auth_enabled'
    | 'reg_type'
    | 'email_conf_enabled'
    | 'session_duration_seconds'
    | 'saved_session_days'
    | 'require_player_session'
  >
>;

/** How many games one developer may own. */
const MAX_GAMES_PER_DEVELOPER = 100;

/** The pool of a game's players in the identity module. */
export const playerPoolId = (gameId: string) => `game:${gameId}`;

export interface GamesDeps {
  db: Kysely<DB>;
  clock: Clock;
  /** Writes what every new game starts with (the default leaderboard), in the game's transaction. */
  setUpGame(trx: Kysely<DB>, gameId: string, now: number): Promise<void>;
  /** Every module that keeps rows under a game, in the order their rows go when it is deleted. */
  underGame: readonly GameRows[];
  /** Where games read by every game call are kept (`find`); without, every call reads the database. */
  caches?: Caches;
}

/** The newest plugin and engine versions a game's clients reported (the front door notes them). */
export type ClientVersions = Partial<Pick<GameRow, 'latest_plugin_version' | 'latest_engine'>>;

/** Runs once the game's delete has committed: what is kept outside the database lets go (a rank index). */
type AfterDelete = () => Promise<void>;

/** A module that keeps rows under a game, and so removes them when the game is deleted. */
export interface GameRows {
  /**
   * Deletes the module's rows of the game in the delete's transaction, after the game's row is
   * locked and before it goes; answers what to run once that transaction has committed, or undefined.
   */
  removeGame(trx: Transaction<DB>, gameId: string): Promise<AfterDelete | undefined>;
}

/**
 * Games of a developer: create, list, switch, rename, delete, and their API keys. `owned` is the one
 * ownership check (the console's hook runs it on every route with a `:gameId`); calls that take a
 * `GameRow` take a game it already let through.
 */
export function createGames({ db, clock, setUpGame, underGame, caches = noCaches }: GamesDeps) {
  // Game id → row, for the game API's key check; every write below drops the id once it has committed.
  const kept = caches.cache<GameRow>('games');

  async function change(gameId: string, changes: Parameters<typeof store.updateGame>[2]): Promise<void> {
    await store.updateGame(db, gameId, changes);
    await kept.invalidate(gameId);
  }

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

    /**
     * For other modules writing under a game (player accounts, player data): whether the game still
     * exists, holding its row until their transaction ends so a delete of the game waits for the write.
     */
    hold: gameHold.hold,
    exists: gameHold.exists,

    /** Saves a game's player settings (the players module's console). */
    savePlayerSettings: (gameId: string, changes: PlayerSettingsRow): Promise<void> => change(gameId, changes),

    /** The game of this id for the game API (kept in memory; shared, so never changed in place). */
    find: (gameId: string): Promise<GameRow | undefined> => kept.get(gameId, () => store.findGame(db, gameId)),
    /** The game of this id if it is kept in memory now (see find), without a read. */
    findKept: (gameId: string): GameRow | undefined => kept.peek(gameId),

    /** Keeps the newer client versions the front door saw. */
    noteClientVersions: (gameId: string, versions: ClientVersions): Promise<void> => change(gameId, versions),
    /** The game's row when the developer owns it; 404 otherwise (`requireOwnerOnGameRoutes` runs it). */
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
        await store.lockDeveloper(trx, developerId);
        if ((await store.countGames(trx, developerId)) >= MAX_GAMES_PER_DEVELOPER)
          throw gameErrors.limitReached(MAX_GAMES_PER_DEVELOPER);
        await store.insertGame(trx, game);
        await setUpGame(trx, game.id, game.created_at);
        await store.setCurrentGameId(trx, developerId, game.id);
      });
      return { game_id: game.id, api_key: game.api_key };
    },

    get: (game: GameRow): GameDetails => toDetails(game),

    async update(game: GameRow, changes: { name?: string; allow_client_deletes?: boolean }): Promise<GameDetails> {
      const patch = {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.allow_client_deletes !== undefined
          ? { allow_client_deletes: changes.allow_client_deletes ? 1 : 0 }
          : {}),
      };
      await change(game.id, patch);
      return toDetails({ ...game, ...patch });
    },

    async setCurrent(developerId: string, gameId: string): Promise<GamesResponse> {
      await db.transaction().execute(async (trx) => {
        await store.lockDeveloper(trx, developerId);
        await owned(developerId, gameId, trx);
        await store.setCurrentGameId(trx, developerId, gameId);
      });
      return list(developerId);
    },

    /** Deletes the game and all under it in one transaction; the current game becomes the newest remaining one, or none. */
    async remove(developerId: string, gameId: string): Promise<GamesResponse> {
      const afterDelete = await db.transaction().execute(async (trx) => {
        await store.lockDeveloper(trx, developerId);
        await owned(developerId, gameId, trx);
        // Read before the delete: the foreign key clears current_game_id along with the game.
        const wasCurrent = (await store.getCurrentGameId(trx, developerId)) === gameId;
        // The game's row first, then each module's rows (boards before their scores, in leaderboards).
        await store.lockGameForDelete(trx, gameId);
        const after: AfterDelete[] = [];
        for (const rows of underGame) {
          const then = await rows.removeGame(trx, gameId);
          if (then) after.push(then);
        }
        await store.deleteGame(trx, gameId);
        if (wasCurrent) {
          const rest = await store.listGames(trx, developerId);
          await store.setCurrentGameId(trx, developerId, rest.at(-1)?.id ?? null);
        }
        return after;
      });
      await kept.invalidate(gameId);
      for (const then of afterDelete) await then();
      return list(developerId);
    },

    apiKey: (game: GameRow): string => game.api_key,

    /** Issues a new key; the old one stops working at once, in every process (the kept game is dropped). */
    async rotateApiKey(game: GameRow): Promise<string> {
      const apiKey = newApiKey();
      await change(game.id, { api_key: apiKey });
      return apiKey;
    },
  };
}

export type Games = ReturnType<typeof createGames>;

/** What the players and player-data modules use of games: never the store, only these. */
/** What other modules' writes need of games: holding a game's row in their transaction. */
export interface GameHold {
  hold(trx: Transaction<DB>, gameId: string): Promise<boolean>;
  /** Whether the game is there now, with no lock: for a long read to tell a game deleted under it. */
  exists(db: Kysely<DB>, gameId: string): Promise<boolean>;
}

/**
 * Holds a game's row for the rest of a transaction (false when the game is gone): what other
 * modules' writes take first, so a game deleted meanwhile leaves none of their rows behind. It
 * needs nothing of a games service, so the modules a game delete calls can have it before one exists.
 */
export const gameHold: GameHold = {
  hold: (trx, gameId) => store.holdGame(trx, gameId),
  exists: async (db, gameId) => (await store.findGame(db, gameId)) !== undefined,
};

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
