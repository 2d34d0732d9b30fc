import { MAX_METADATA_BYTES } from '@howl/contract';
import { AppError } from '../../http/errors.js';

export { MAX_METADATA_BYTES };

export const MAX_LEADERBOARDS_PER_GAME = 100;

export const leaderboardErrors = {
  notFound: (name: string) =>
    new AppError(
      404,
      'LeaderboardNotFound',
      `This game has no leaderboard named "${name}". Create it on the Howl site (Leaderboards, custom leaderboards) or with POST /api/games/{gameId}/leaderboards.`,
    ),
  exists: (name: string) =>
    new AppError(409, 'LeaderboardExists', `This game already has a leaderboard named "${name}".`, { field: 'name' }),
  limitReached: () =>
    new AppError(409, 'LeaderboardLimitReached', `A game can have at most ${MAX_LEADERBOARDS_PER_GAME} leaderboards.`),
  timezone: (message: string) => new AppError(400, 'InvalidParameter', message, { field: 'timezone' }),
  scoreNotFound: () => new AppError(404, 'ScoreNotFound', 'No score with this id in this game.'),
  scoreInOtherPeriod: () =>
    new AppError(
      404,
      'ScoreNotFound',
      'This score was saved in another period of this leaderboard than the one asked for.',
    ),
  metadataTooLarge: (bytes: number) =>
    new AppError(413, 'MetadataTooLarge', `Metadata is ${bytes} bytes; the limit is ${MAX_METADATA_BYTES} bytes.`, {
      field: 'metadata',
    }),
  noPeriods: () =>
    new AppError(400, 'InvalidParameter', 'This leaderboard has no reset periods; period_offset must be 0.', {
      field: 'period_offset',
    }),
  badCursor: () =>
    new AppError(400, 'InvalidParameter', 'This cursor is not valid for this leaderboard and period.', {
      field: 'cursor',
    }),
  unread: (cause: unknown) =>
    new AppError(
      503,
      'ServiceUnavailable',
      'The leaderboard could not be read after this save. Try again in a moment.',
      {
        retryAfterSeconds: 1,
        cause,
      },
    ),
  busy: () =>
    new AppError(503, 'ServiceUnavailable', "The leaderboard's settings are changing. Try again in a moment.", {
      retryAfterSeconds: 1,
    }),
  changedDuringImport: (name: string) =>
    new AppError(
      409,
      'LeaderboardChanged',
      `The leaderboard "${name}" was changed or wiped while the import wrote it, so the import stopped; what it wrote before stays. Import the same file again to complete it.`,
    ),
  clientDeletesDisabled: () =>
    new AppError(
      403,
      'ClientWritesDisabled',
      'The developer has turned off deleting scores from the game. Delete them on the Howl dashboard, or allow client deletes in the game settings.',
    ),
};
