import { z } from 'zod';

// Controls (Cc) and invisible format characters (Cf: zero-width space, soft hyphen, bidi overrides),
// and the Hangul fillers (letters by category, blank on screen): never meaningful in a line someone
// typed, they make look-alike or invisible names, and PostgreSQL cannot store NUL.
const INVISIBLE_CHARACTERS = /[\p{Cc}\p{Cf}\u115F\u1160\u3164\uFFA0]/u;

/** A single line of text a person typed: no control or invisible formatting characters. */
export function singleLine(schema: z.ZodString, label: string) {
  return schema.refine((v) => !INVISIBLE_CHARACTERS.test(v), {
    message: `${label} cannot contain control or invisible formatting characters.`,
  });
}

/** Emails are usernames: trimmed and lowercased before anything else looks at them. */
export const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'Please enter a valid email address.' }).max(254))
  .meta({ description: 'Email address; trimmed and lowercased, it is the username.' });

/** Only presence and size here; the password policy is a server rule with its own code (InvalidPassword). */
export const password = z
  .string()
  .min(1, { message: 'Please enter a password.' })
  .max(256, { message: 'Passwords can be at most 256 characters.' });

export const confirmationCode = z
  .string()
  .trim()
  .min(1, { message: 'Please enter your confirmation code.' })
  .max(32, { message: 'Invalid confirmation code.' })
  .meta({ description: 'The 6-digit code from the email.' });

const personName = (label: string) =>
  singleLine(
    z
      .string()
      .trim()
      .min(1, { message: 'Please enter your first name and last name.' })
      .max(100, { message: `${label} can be at most 100 characters.` }),
    label,
  );

export const signUpBody = z.object({
  email,
  password,
  firstName: personName('First name'),
  lastName: personName('Last name'),
  company: singleLine(z.string().trim().max(200, { message: 'Company can be at most 200 characters.' }), 'Company')
    .optional()
    .meta({ description: 'Optional company name.' }),
});
export type SignUpBody = z.input<typeof signUpBody>;

export const confirmSignUpBody = z.object({ email, code: confirmationCode });
export const emailOnlyBody = z.object({ email });
export const signInBody = z.object({ email, password });
export const confirmForgotPasswordBody = z.object({
  email,
  code: confirmationCode,
  newPassword: password,
});
export const changePasswordBody = z.object({ oldPassword: password, newPassword: password });

/** The signed-in developer with their games and current game: all the site needs to restore a session. */
export const developerSession = z
  .object({
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    company: z.string().nullable(),
    games: z.array(z.object({ game_id: z.string(), name: z.string(), created_at: z.string() })),
    current_game_id: z.string().nullable(),
  })
  .meta({ id: 'DeveloperSession' });
export type DeveloperSession = z.infer<typeof developerSession>;

/** `GET /api/auth/whoami`: the session, or null when signed out (no failed request on a visitor's page load). */
export const whoamiResponse = z.object({ session: developerSession.nullable() });

export const okResponse = z.object({ ok: z.literal(true) });

/** What sign-up answers: the account exists but waits for its emailed code. */
export const signUpResponse = z.object({
  email: z.string(),
  confirmed: z.literal(false),
  codeDeliveryDestination: z.string().meta({ description: 'Where the code was sent.' }),
});
