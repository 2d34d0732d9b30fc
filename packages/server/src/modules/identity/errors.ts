import { AppError } from '../../http/errors.js';

/** The identity module's failures, each with its one status and stable code. */
export const identityErrors = {
  usernameExists: () => new AppError(409, 'UsernameExists', 'An account with this username already exists.'),
  userNotFound: () => new AppError(404, 'UserNotFound', 'No account exists for this username.'),
  notAuthorized: (message = 'Incorrect username or password.') => new AppError(401, 'NotAuthorized', message),
  userNotConfirmed: () =>
    new AppError(403, 'UserNotConfirmed', 'This account is not confirmed yet. Enter the code we emailed you.'),
  alreadyConfirmed: () => new AppError(400, 'InvalidParameter', 'This account is already confirmed. Please sign in.'),
  codeMismatch: () => new AppError(400, 'CodeMismatch', 'Invalid confirmation code.'),
  expiredCode: () => new AppError(400, 'ExpiredCode', 'This code is no longer valid. Please request a new code.'),
  invalidPassword: (field: string) =>
    new AppError(
      400,
      'InvalidPassword',
      'Passwords must have at least 8 characters, with an upper-case letter, a lower-case letter, a number and a symbol.',
      { field },
    ),
  userDisabled: (message = 'This account is disabled.') => new AppError(403, 'UserDisabled', message),
  passwordResetRequired: () =>
    new AppError(
      403,
      'PasswordResetRequired',
      'A password reset was requested for this account. Set a new password with the code we emailed you.',
    ),
  sessionExpired: () =>
    new AppError(401, 'SessionExpired', 'This session has expired or was ended. Please sign in again.'),
  mailFailed: (cause: unknown) =>
    new AppError(503, 'ServiceUnavailable', 'We could not send the email right now. Please try again in a moment.', {
      cause,
    }),
};
