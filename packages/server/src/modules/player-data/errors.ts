import { GAME_STATE_PLAYER, MAX_CHARACTERS_PER_PLAYER, MAX_PLAYER_DATA_BYTES } from '@howl/contract';
import { AppError } from '../../http/errors.js';

/** The player data calls' own failures, each with one status and stable code. */
export const playerDataErrors = {
  tooLarge: (bytes: number) =>
    new AppError(
      413,
      'PlayerDataTooLarge',
      `This player data would be ${bytes} bytes; the limit is ${MAX_PLAYER_DATA_BYTES} bytes. Nothing was saved.`,
      { field: 'player_data' },
    ),
  versionConflict: (current: number) =>
    new AppError(
      409,
      'VersionConflict',
      `The stored player data is at version ${current}; read it again and retry your change.`,
      { currentVersion: current },
    ),
  gameStateCharacters: () =>
    new AppError(400, 'InvalidParameter', `${GAME_STATE_PLAYER} holds the game state; it has no characters.`, {
      field: 'player',
    }),
  gameGone: () => new AppError(404, 'NotFound', 'This game no longer exists.'),
  characterLimit: () =>
    new AppError(
      409,
      'CharacterLimitReached',
      `A player can keep data for at most ${MAX_CHARACTERS_PER_PLAYER} characters. Delete one to add another.`,
    ),
};
