import { AppError } from '../../http/errors.js';

/** The import's own refusals; rows that break a schema answer through the contract's messages. */
export const importErrors = {
  unknownBoard: (name: string, index: number) =>
    new AppError(
      400,
      'InvalidParameter',
      `This game has no leaderboard named "${name}". Create it first (with the save mode it had), then import again; nothing was imported.`,
      { field: `leaderboards.${index}.name` },
    ),
  reservedName: (name: string, field: string) =>
    new AppError(400, 'InvalidParameter', `"${name}" is reserved for the game state; it cannot be a player.`, {
      field,
    }),
  ownImportUnderWay: () =>
    new AppError(
      429,
      'LimitExceeded',
      'An import of yours is still being written. Send the next one once it has answered.',
      { retryAfterSeconds: 5 },
    ),
  busy: () =>
    new AppError(429, 'LimitExceeded', 'Other imports are being written just now. Try again in a moment.', {
      retryAfterSeconds: 5,
    }),
};
