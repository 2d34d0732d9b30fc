import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.js';
import {
  AUTH_ERRORS,
  changePasswordErrorMessage,
  confirmCodeErrorMessage,
  contactErrorMessage,
  forgotPasswordErrorMessage,
  resetPasswordErrorMessage,
  signInErrorMessage,
  signUpErrorMessage,
} from './auth-errors.js';

type Code = ConstructorParameters<typeof ApiError>[1];
const err = (code: Code, message = `server says ${code}`) => new ApiError(400, code, message);

const GENERIC =
  "Something wrong happened. If this problem persists please contact us and we'll help you get this sorted.";
const TOO_OFTEN = "You've requested a password change too often. Please try again later.";

describe('signInErrorMessage', () => {
  it.each<[Code, string]>([
    ['UserNotFound', 'Incorrect username or password'],
    ['NotAuthorized', 'Incorrect username or password'],
    ['LimitExceeded', 'server says LimitExceeded'],
    ['UserDisabled', 'server says UserDisabled'],
  ])('%s → %s', (code, text) => {
    expect(signInErrorMessage(err(code))).toBe(text);
  });
  it('says the backend could not be reached on a network error', () => {
    expect(signInErrorMessage(err('NetworkError'))).toBe(AUTH_ERRORS.network);
    expect(AUTH_ERRORS.network).toMatch(/could not reach/i);
    expect(AUTH_ERRORS.network).toMatch(/connection/i);
  });
});

describe('signUpErrorMessage', () => {
  it.each<[Code, string]>([
    ['UsernameExists', 'There is already an account for this email address. Please log in or select Forgot password.'],
    [
      'InvalidPassword',
      'Invalid password. Please select a password containing a combination of at least 8 lowercase and uppercase letters, numbers and symbols.',
    ],
    ['InvalidParameter', 'server says InvalidParameter'],
    ['LimitExceeded', 'server says LimitExceeded'],
    ['ServiceUnavailable', 'server says ServiceUnavailable'],
    ['NetworkError', AUTH_ERRORS.network],
  ])('%s → %s', (code, text) => {
    expect(signUpErrorMessage(err(code))).toBe(text);
  });
});

describe('confirmCodeErrorMessage', () => {
  it.each<Code>(['CodeMismatch', 'ExpiredCode', 'UserNotFound', 'InvalidParameter', 'LimitExceeded'])(
    '%s → Invalid confirmation code',
    (code) => {
      expect(confirmCodeErrorMessage(err(code))).toBe('Invalid confirmation code');
    },
  );
});

describe('forgotPasswordErrorMessage', () => {
  it.each<[Code, string]>([
    [
      'UserNotFound',
      "We can't request a new password for this user. If this problem persists please contact us and we'll help you get this sorted.",
    ],
    ['LimitExceeded', TOO_OFTEN],
    ['InvalidParameter', GENERIC],
    ['ServiceUnavailable', GENERIC],
    ['NetworkError', GENERIC],
  ])('%s → %s', (code, text) => {
    expect(forgotPasswordErrorMessage(err(code))).toBe(text);
  });
});

describe('resetPasswordErrorMessage', () => {
  it.each<[Code, string]>([
    ['CodeMismatch', 'The confirmation code you entered is incorrect. Please try again.'],
    ['ExpiredCode', 'The confirmation code you entered is incorrect. Please try again.'],
    ['LimitExceeded', TOO_OFTEN],
    ['InvalidPassword', 'The password you entered is invalid. Please try again.'],
    ['UserNotFound', GENERIC],
    ['InternalError', GENERIC],
  ])('%s → %s', (code, text) => {
    expect(resetPasswordErrorMessage(err(code))).toBe(text);
  });
});

describe('changePasswordErrorMessage', () => {
  it.each<[Code, string]>([
    ['LimitExceeded', TOO_OFTEN],
    ['NotAuthorized', 'Your old password is incorrect.'],
    [
      'InvalidPassword',
      'Your new password is invalid. Passwords must contain at least 8 characters and feature at least one letter, one number and one symbol.',
    ],
    ['InvalidParameter', GENERIC],
    ['NetworkError', GENERIC],
  ])('%s → %s', (code, text) => {
    expect(changePasswordErrorMessage(err(code))).toBe(text);
  });
});

describe('contactErrorMessage', () => {
  it("shows the server's message", () => {
    expect(contactErrorMessage(err('InvalidParameter', 'Please enter a message'))).toBe('Please enter a message');
    expect(contactErrorMessage(err('LimitExceeded', 'Too many attempts.'))).toBe('Too many attempts.');
  });
  it('falls back to the generic sentence for something that is not an error', () => {
    expect(contactErrorMessage('??')).toBe(GENERIC);
  });
});
