import { email as contractEmail, password as contractPassword } from '@howl/contract';

/**
 * The sign-in flows' form checks, in the order the spec gives them. Each function returns the first
 * message to show, or undefined when the form may be sent. The server checks again; these only spare
 * a round trip and keep the wording of the spec.
 */

/** The standard address pattern is the contract's email schema, the one the server checks. */
const isEmailAddress = (value: string) => contractEmail.safeParse(value).success;

/** The contract's password minimum (present): the rule of every password field but sign-up's. */
const PASSWORD_MIN = contractPassword.minLength ?? 1;

/** The minimums the sign-up form checks (the server's password policy asks for 8 and a mix). */
const SIGN_UP_LIMITS = {
  emailMin: 5, // spec §5/§9 fixes this client-side rule; the contract only asks for a valid address
  passwordMin: 6, // spec §5/§9 fixes this client-side rule; the contract's minimum is 1
} as const;

/** Emails are usernames: trimmed and lowercased before they are sent, as the contract's schema does. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

const missingPassword = (value: string) => value.length < PASSWORD_MIN;

const MESSAGES = {
  names: 'Please enter your first name and last name.',
  signUpEmail: 'Please enter a valid email address.',
  signUpPassword: 'Please enter a valid password.',
  signUpMismatch: "Passwords don't match.",
  terms: 'Please read and accept our Terms of service.',
  emailEmpty: 'Please enter your email address.',
  emailInvalid: 'Please enter a valid email address.',
  passwordEmpty: 'Please enter your password.',
  code: 'Please enter your confirmation code.',
  newPasswordsMismatch: "The two new passwords you entered don't match.",
  newPasswordEmpty: 'Please enter a new password.',
  oldPasswordEmpty: 'Please enter your old password.',
  contactEmail: 'Please enter a valid email address',
  contactMessage: 'Please enter a message',
} as const;

export interface SignUpForm {
  firstName: string;
  lastName: string;
  company: string;
  email: string;
  password: string;
  confirmPassword: string;
  acceptTerms: boolean;
}

/** Sign-up (spec §5): names, email of at least 5 characters, password of at least 6, match, terms. */
export function validateSignUp(f: SignUpForm): string | undefined {
  if (!f.firstName.trim() || !f.lastName.trim()) return MESSAGES.names;
  if (normaliseEmail(f.email).length < SIGN_UP_LIMITS.emailMin) return MESSAGES.signUpEmail;
  if (f.password.length < SIGN_UP_LIMITS.passwordMin) return MESSAGES.signUpPassword;
  if (f.password !== f.confirmPassword) return MESSAGES.signUpMismatch;
  if (!f.acceptTerms) return MESSAGES.terms;
  return undefined;
}

/** Sign-in: both fields present (the spec gives no rule; the server answers the rest). */
export function validateSignIn(f: { email: string; password: string }): string | undefined {
  if (!f.email.trim()) return MESSAGES.emailEmpty;
  if (missingPassword(f.password)) return MESSAGES.passwordEmpty;
  return undefined;
}

/** Forgot password, step 1: an email that is there, then one that looks like an address. */
export function validateForgotPasswordEmail(email: string): string | undefined {
  const value = normaliseEmail(email);
  if (!value) return MESSAGES.emailEmpty;
  if (!isEmailAddress(value)) return MESSAGES.emailInvalid;
  return undefined;
}

/** Forgot password, step 2: the code, then a new password, then the two new passwords equal. */
export function validateResetPassword(f: {
  code: string;
  newPassword: string;
  confirmPassword: string;
}): string | undefined {
  if (!f.code.trim()) return MESSAGES.code;
  if (missingPassword(f.newPassword)) return MESSAGES.newPasswordEmpty;
  if (f.newPassword !== f.confirmPassword) return MESSAGES.newPasswordsMismatch;
  return undefined;
}

/** The confirmation code after sign-up. */
export function validateConfirmationCode(code: string): string | undefined {
  return code.trim() ? undefined : MESSAGES.code;
}

/** Change password: the old one given, a new one given, the two new passwords equal. */
export function validateChangePassword(f: {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}): string | undefined {
  if (missingPassword(f.oldPassword)) return MESSAGES.oldPasswordEmpty;
  if (missingPassword(f.newPassword)) return MESSAGES.newPasswordEmpty;
  if (f.newPassword !== f.confirmPassword) return MESSAGES.newPasswordsMismatch;
  return undefined;
}

/** Contact: the email (typed, or the signed-in developer's) looks like an address, and there is a message. */
export function validateContact(f: { email: string; message: string }): string | undefined {
  if (!isEmailAddress(normaliseEmail(f.email))) return MESSAGES.contactEmail;
  if (!f.message.trim()) return MESSAGES.contactMessage;
  return undefined;
}
