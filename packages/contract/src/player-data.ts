import { z } from 'zod';
import { nameRule } from './leaderboards.js';

/** A stored document may not exceed this many bytes of compact UTF-8 JSON. */
export const MAX_PLAYER_DATA_BYTES = 40_960;
/** Game state is documented as the data of this reserved name; it is never listed as a player. */
export const GAME_STATE_PLAYER = '__game__';
export const MAX_CHARACTERS_PER_PLAYER = 100;

export const characterName = nameRule('character').meta({
  description: 'Trimmed and NFKC-normalised; 1–100 characters, as a player name.',
});

const playerDataDocument = z.record(z.string(), z.unknown()).meta({
  description: `A JSON object: strings, numbers, booleans, null, arrays and nested objects; at most ${MAX_PLAYER_DATA_BYTES} bytes stored.`,
});

const ifVersion = z
  .number({ message: 'if_version must be a whole number, 0 or more.' })
  .int({ message: 'if_version must be a whole number, 0 or more.' })
  .min(0, { message: 'if_version must be a whole number, 0 or more.' })
  .optional()
  .meta({
    description: 'Write only if the stored version is this one (0: no document yet); else 409 VersionConflict.',
  });

// The writes' bodies are closed: a misspelt `overwrite` or `keys` would otherwise replace or delete the whole document.
export const putPlayerDataBody = z.strictObject({
  player_data: z.record(z.string(), z.unknown(), { message: 'player_data must be a JSON object.' }),
  overwrite: z
    .boolean({ message: 'overwrite must be true or false.' })
    .default(true)
    .meta({ description: 'true replaces the document; false merges its top-level keys into the stored one.' }),
  if_version: ifVersion,
});

/** Without a body (or without keys) the whole document goes. */
export const deletePlayerDataBody = z
  .strictObject({
    keys: z
      // Any key a document can hold can be named: no longer than a document.
      .array(z.string().max(MAX_PLAYER_DATA_BYTES), { message: 'keys must be a list of top-level keys.' })
      .max(1000, { message: 'keys can name at most 1000 keys.' })
      .optional(),
    if_version: ifVersion,
  })
  .nullish();

export const playerDataResponse = z
  .object({
    player_name: z.string(),
    character: z.string().optional().meta({ description: 'Only on character documents.' }),
    player_data: playerDataDocument,
    version: z.number().meta({ description: '0 while there is no document.' }),
    updated_at: z.string().nullable().meta({ description: 'ISO 8601; null while there is no document.' }),
  })
  .meta({ id: 'PlayerData' });

export const characterListResponse = z.object({ player_name: z.string(), characters: z.array(z.string()) });
