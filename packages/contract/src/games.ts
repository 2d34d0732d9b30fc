import { z } from 'zod';
import { singleLine } from './auth.js';

const gameName = singleLine(
  z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? 'Please enter a name for your game.'
          : 'The game name must be text.',
    })
    .trim()
    .min(1, { message: 'Please enter a name for your game.' })
    .max(64, { message: 'Game names can be at most 64 characters.' }),
  'The game name',
).meta({ description: 'The game name, 1–64 characters after trimming.' });

export const gameId = z.string().min(1).max(64).meta({ description: 'The game id: URL-safe, unique and stable.' });

export const createGameBody = z.object({ name: gameName });
export const createGameResponse = z.object({
  game_id: z.string(),
  api_key: z.string().meta({ description: 'Send it as x-api-key with x-game-id on every game API call.' }),
});

const gameSummary = z.object({
  game_id: z.string(),
  name: z.string(),
  created_at: z.string().meta({ description: 'ISO 8601, UTC.' }),
});

/** The developer's games, oldest first, and which one is current (null with no games). */
export const gamesResponse = z
  .object({ games: z.array(gameSummary), current_game_id: z.string().nullable() })
  .meta({ id: 'Games' });
export type GamesResponse = z.infer<typeof gamesResponse>;

export const setCurrentGameBody = z.object({ game_id: gameId });

export const regType = z.enum(['email_un_pwd', 'un_pwd']);

export const gameDetails = z
  .object({
    game_id: z.string(),
    name: z.string(),
    created_at: z.string(),
    player_auth_enabled: z.boolean(),
    reg_type: regType,
    email_conf_enabled: z.boolean(),
    latest_plugin_version: z
      .string()
      .nullable()
      .meta({ description: 'The plugin version the game last reported (x-howl-plugin-version).' }),
    latest_engine: z
      .string()
      .nullable()
      .meta({ description: 'The engine version the game last reported (x-howl-engine).' }),
    allow_client_deletes: z.boolean().meta({ description: 'Whether the game API may delete scores and wipe boards.' }),
  })
  .meta({ id: 'Game' });
export type GameDetails = z.infer<typeof gameDetails>;

export const patchGameBody = z
  .object({ name: gameName.optional(), allow_client_deletes: z.boolean().optional() })
  .refine((b) => b.name !== undefined || b.allow_client_deletes !== undefined, {
    message: 'Send name or allow_client_deletes.',
  });

export const apiKeyResponse = z.object({ api_key: z.string() });

/** `GET /v1/ping`: lets a plugin check its key and game id. */
export const pingResponse = z.object({ game_id: z.string(), name: z.string() });
