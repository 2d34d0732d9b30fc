import { AppError } from '../../http/errors.js';

/** The player calls' own failures, each with one status and stable code. */
export const playerErrors = {
  authDisabled: () =>
    new AppError(
      403,
      'PlayerAuthDisabled',
      'Player authentication is disabled for this game. Enable it on the Howl site under Player authentication.',
    ),
  notFound: () => new AppError(404, 'PlayerNotFound', 'No player with this name is registered in this game.'),
  nameTaken: () => new AppError(409, 'PlayerNameTaken', 'This player name is already taken. Please choose another.'),
  reservedName: () =>
    new AppError(400, 'InvalidParameter', 'This name is reserved for the game state. Please choose another.', {
      field: 'player_name',
    }),
  invalidEmail: () => new AppError(400, 'InvalidEmail', 'Please enter a valid email address.', { field: 'email' }),
  passwordMismatch: () =>
    new AppError(400, 'PasswordMismatch', "Passwords don't match.", { field: 'confirm_password' }),
  notAuthorized: () => new AppError(401, 'NotAuthorized', 'Incorrect player name or password.'),
  disabled: () => new AppError(403, 'PlayerDisabled', 'This player account is disabled.'),
  noEmail: () =>
    new AppError(
      400,
      'InvalidParameter',
      'This player has no email address, so the password cannot be reset by mail. Ask the game’s developer to set a new one.',
      { field: 'player_name' },
    ),
  sessionRequired: () =>
    new AppError(
      401,
      'PlayerSessionRequired',
      "This name belongs to a registered player. Log in as this player and send the session as 'Authorization: Bearer <access_token>'.",
    ),
  signInRequired: () =>
    new AppError(
      401,
      'NotAuthorized',
      "Log in first and send the player's session as 'Authorization: Bearer <access_token>'.",
    ),
  emptyPassword: () =>
    new AppError(400, 'InvalidParameter', 'Please enter a new password for this player.', { field: 'password' }),
  badCursor: () =>
    new AppError(400, 'InvalidParameter', 'This cursor is not valid. Start again from the first page.', {
      field: 'cursor',
    }),
};

/**
 * The identity module speaks of users; the game API speaks of players. At login an unknown name
 * answers like a wrong password, so names cannot be probed there. Everything else passes through.
 */
export function asPlayerError(err: unknown, atLogin = false): unknown {
  if (!(err instanceof AppError)) return err;
  switch (err.code) {
    case 'UsernameExists':
      return playerErrors.nameTaken();
    case 'UserNotFound':
      return atLogin ? playerErrors.notAuthorized() : playerErrors.notFound();
    case 'NotAuthorized':
      return playerErrors.notAuthorized();
    case 'UserDisabled':
      return playerErrors.disabled();
    default:
      return err;
  }
}
