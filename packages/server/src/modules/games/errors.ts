import { AppError } from '../../http/errors.js';

/** The games module's failures, each with one status and stable code. */
export const gameErrors = {
  notFound: () => new AppError(404, 'NotFound', 'Game not found.'),
  limitReached: (max: number) =>
    new AppError(409, 'GameLimitReached', `You can own at most ${max} games. Delete one to create another.`),
};
