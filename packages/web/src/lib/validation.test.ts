import { describe, expect, it } from 'vitest';
import {
  validateChangePassword,
  validateConfirmationCode,
  validateContact,
  validateForgotPasswordEmail,
  validateResetPassword,
  validateSignIn,
  validateSignUp,
  normaliseEmail,
  type SignUpForm,
} from './validation.js';

const validSignUp: SignUpForm = {
  firstName: 'Indie',
  lastName: 'Player',
  company: '',
  email: 'indie@example.com',
  password: 'secret',
  confirmPassword: 'secret',
  acceptTerms: true,
};

describe('validateSignUp (spec §5, in order)', () => {
  it.each<[string, Partial<SignUpForm>, string]>([
    ['no first name', { firstName: '' }, 'Please enter your first name and last name.'],
    ['a blank last name', { lastName: '   ' }, 'Please enter your first name and last name.'],
    ['an email under 5 characters', { email: 'a@b.' }, 'Please enter a valid email address.'],
    ['an email of spaces around 4 characters', { email: '  a@bc  ' }, 'Please enter a valid email address.'],
    [
      'a password under 6 characters',
      { password: '12345', confirmPassword: '12345' },
      'Please enter a valid password.',
    ],
    ['passwords that differ', { confirmPassword: 'secreT' }, "Passwords don't match."],
    ['terms not accepted', { acceptTerms: false }, 'Please read and accept our Terms of service.'],
  ])('refuses %s', (_, change, message) => {
    expect(validateSignUp({ ...validSignUp, ...change })).toBe(message);
  });

  it('reports only the first failure, in the spec order', () => {
    const everythingWrong: SignUpForm = {
      firstName: '',
      lastName: '',
      company: '',
      email: 'a',
      password: '1',
      confirmPassword: '2',
      acceptTerms: false,
    };
    const fixes: Partial<SignUpForm>[] = [
      { firstName: 'Indie', lastName: 'Player' },
      { email: 'indie@example.com' },
      { password: 'secret' },
      { confirmPassword: 'secret' },
      { acceptTerms: true },
    ];
    const seen: (string | undefined)[] = [];
    let form = everythingWrong;
    for (const fix of fixes) {
      seen.push(validateSignUp(form));
      form = { ...form, ...fix };
    }
    seen.push(validateSignUp(form));
    expect(seen).toEqual([
      'Please enter your first name and last name.',
      'Please enter a valid email address.',
      'Please enter a valid password.',
      "Passwords don't match.",
      'Please read and accept our Terms of service.',
      undefined,
    ]);
  });

  it('lets an empty company through (it is optional), and a 5-character email and 6-character password', () => {
    expect(validateSignUp({ ...validSignUp, email: 'a@b.c', password: '123456', confirmPassword: '123456' })).toBe(
      undefined,
    );
  });
});

describe('validateSignIn', () => {
  it('asks for the email, then the password', () => {
    expect(validateSignIn({ email: ' ', password: '' })).toBe('Please enter your email address.');
    expect(validateSignIn({ email: 'indie@example.com', password: '' })).toBe('Please enter your password.');
    expect(validateSignIn({ email: 'indie@example.com', password: 'x' })).toBe(undefined);
  });
});

describe('normaliseEmail', () => {
  it('trims and lowercases', () => {
    expect(normaliseEmail('  Indie@Example.COM ')).toBe('indie@example.com');
  });
});

describe('validateForgotPasswordEmail', () => {
  it.each([
    ['', 'Please enter your email address.'],
    ['   ', 'Please enter your email address.'],
    ['indie', 'Please enter a valid email address.'],
    ['indie@example', 'Please enter a valid email address.'],
    ['indie @example.com', 'Please enter a valid email address.'],
    ['indie@@example.com', 'Please enter a valid email address.'],
    [' Indie@Example.com ', undefined],
  ])('%j gives %j', (email, message) => {
    expect(validateForgotPasswordEmail(email)).toBe(message);
  });
});

describe('validateResetPassword', () => {
  const ok = { code: '123456', newPassword: 'Secret-1!', confirmPassword: 'Secret-1!' };
  it('checks the code first, then the new password, then that both match', () => {
    expect(validateResetPassword({ code: ' ', newPassword: '', confirmPassword: 'x' })).toBe(
      'Please enter your confirmation code.',
    );
    expect(validateResetPassword({ ...ok, newPassword: '', confirmPassword: '' })).toBe('Please enter a new password.');
    expect(validateResetPassword({ ...ok, confirmPassword: 'Secret-2!' })).toBe(
      "The two new passwords you entered don't match.",
    );
    expect(validateResetPassword(ok)).toBe(undefined);
  });
});

describe('validateConfirmationCode', () => {
  it('asks for a code', () => {
    expect(validateConfirmationCode('  ')).toBe('Please enter your confirmation code.');
    expect(validateConfirmationCode('123456')).toBe(undefined);
  });
});

describe('validateChangePassword', () => {
  const ok = { oldPassword: 'Old-pass-1!', newPassword: 'New-pass-1!', confirmPassword: 'New-pass-1!' };
  it('gives the spec message when the new passwords differ', () => {
    expect(validateChangePassword({ ...ok, confirmPassword: 'New-pass-2!' })).toBe(
      "The two new passwords you entered don't match.",
    );
  });
  it('asks for the old and the new password before comparing', () => {
    expect(validateChangePassword({ ...ok, oldPassword: '' })).toBe('Please enter your old password.');
    expect(validateChangePassword({ ...ok, newPassword: '', confirmPassword: '' })).toBe(
      'Please enter a new password.',
    );
    expect(validateChangePassword(ok)).toBe(undefined);
  });
});

describe('validateContact', () => {
  it('checks the email pattern first, then the message', () => {
    expect(validateContact({ email: '', message: '' })).toBe('Please enter a valid email address');
    expect(validateContact({ email: 'visitor@', message: 'Hi' })).toBe('Please enter a valid email address');
    expect(validateContact({ email: 'visitor@example.com', message: '  \n ' })).toBe('Please enter a message');
    expect(validateContact({ email: ' Visitor@Example.com', message: 'Hi' })).toBe(undefined);
  });
});
