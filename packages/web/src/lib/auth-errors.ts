/**
 * The spec's error catalogue (§8) for the sign-in flows: which sentence a person sees for each
 * server error code. Each function takes what the API client threw and returns the text to show.
 */

/** What the API client throws (`ApiError`), or anything else that went wrong. */
type Failure = unknown;

const codeOf = (err: Failure): string | undefined =>
  typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;

const messageOf = (err: Failure, fallback: string): string =>
  err instanceof Error && err.message ? err.message : fallback;

export const AUTH_ERRORS = {
  incorrectCredentials: 'Incorrect username or password',
  usernameExists: 'There is already an account for this email address. Please log in or select Forgot password.',
  signUpInvalidPassword:
    'Invalid password. Please select a password containing a combination of at least 8 lowercase and uppercase letters, numbers and symbols.',
  network: 'We could not reach the Howl backend. Please check your internet connection and try again.',
  invalidCode: 'Invalid confirmation code',
  forgotUnknownUser:
    "We can't request a new password for this user. If this problem persists please contact us and we'll help you get this sorted.",
  tooOften: "You've requested a password change too often. Please try again later.",
  generic: "Something wrong happened. If this problem persists please contact us and we'll help you get this sorted.",
  resetCodeMismatch: 'The confirmation code you entered is incorrect. Please try again.',
  resetInvalidPassword: 'The password you entered is invalid. Please try again.',
  oldPasswordIncorrect: 'Your old password is incorrect.',
  newPasswordInvalid:
    'Your new password is invalid. Passwords must contain at least 8 characters and feature at least one letter, one number and one symbol.',
} as const;

/** Sign-in: a missing user or a wrong password read the same; anything else shows the server's message. */
export function signInErrorMessage(err: Failure): string {
  switch (codeOf(err)) {
    case 'UserNotFound':
    case 'NotAuthorized':
      return AUTH_ERRORS.incorrectCredentials;
    case 'NetworkError':
      return AUTH_ERRORS.network;
    default:
      return messageOf(err, AUTH_ERRORS.generic);
  }
}

/** Sign-up: an existing account, a password the policy refuses, no connection, else the server's message. */
export function signUpErrorMessage(err: Failure): string {
  switch (codeOf(err)) {
    case 'UsernameExists':
      return AUTH_ERRORS.usernameExists;
    case 'InvalidPassword':
      return AUTH_ERRORS.signUpInvalidPassword;
    case 'NetworkError':
      return AUTH_ERRORS.network;
    default:
      return messageOf(err, AUTH_ERRORS.generic);
  }
}

/** Confirming the sign-up code: any failure reads 'Invalid confirmation code' (the spec's rule). */
export function confirmCodeErrorMessage(err: Failure): string {
  return codeOf(err) === 'NetworkError' ? AUTH_ERRORS.network : AUTH_ERRORS.invalidCode;
}

/** Asking for a new code (resend): too often, no connection, else the server's message. */
export function resendCodeErrorMessage(err: Failure): string {
  switch (codeOf(err)) {
    case 'NetworkError':
      return AUTH_ERRORS.network;
    default:
      return messageOf(err, AUTH_ERRORS.generic);
  }
}

/** Forgot password, the request: unknown user, too often, else the generic sentence. */
export function forgotPasswordErrorMessage(err: Failure): string {
  switch (codeOf(err)) {
    case 'UserNotFound':
      return AUTH_ERRORS.forgotUnknownUser;
    case 'LimitExceeded':
      return AUTH_ERRORS.tooOften;
    default:
      return AUTH_ERRORS.generic;
  }
}

/** Forgot password, the new password with its code: wrong code, too often, invalid password, else generic. */
export function resetPasswordErrorMessage(err: Failure): string {
  switch (codeOf(err)) {
    // A code that is too old or used up is just as wrong to the person typing it.
    case 'CodeMismatch':
    case 'ExpiredCode':
      return AUTH_ERRORS.resetCodeMismatch;
    case 'LimitExceeded':
      return AUTH_ERRORS.tooOften;
    case 'InvalidPassword':
      return AUTH_ERRORS.resetInvalidPassword;
    default:
      return AUTH_ERRORS.generic;
  }
}

/** Change password: too often, wrong old password, invalid new password, else generic. */
export function changePasswordErrorMessage(err: Failure): string {
  switch (codeOf(err)) {
    case 'LimitExceeded':
      return AUTH_ERRORS.tooOften;
    case 'NotAuthorized':
      return AUTH_ERRORS.oldPasswordIncorrect;
    case 'InvalidPassword':
      return AUTH_ERRORS.newPasswordInvalid;
    default:
      return AUTH_ERRORS.generic;
  }
}

/** Contact: the server's error is shown as it is. */
export function contactErrorMessage(err: Failure): string {
  return codeOf(err) === 'NetworkError' ? AUTH_ERRORS.network : messageOf(err, AUTH_ERRORS.generic);
}
