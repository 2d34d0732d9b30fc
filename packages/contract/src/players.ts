import { z } from 'zod';
import { confirmationCode, password, singleLine } from './auth.js';
import { regType } from './games.js';
import { playerName } from './leaderboards.js';

/** Where the one-time code goes in a custom mail body. The site shows it as @@@@, which is accepted too. */
export const CODE_PLACEHOLDER = '{{code}}';
export const SITE_CODE_PLACEHOLDER = '@@@@';
const MAX_SESSION_DURATION_SECONDS = 365 * 86_400;
export const MAX_EMAIL_SUBJECT = 200;
export const MAX_EMAIL_BODY = 5000;
/** Console pages of players. */
export const PLAYERS_PAGE = 50;

const accountState = z.enum(['CONFIRMED', 'UNCONFIRMED', 'RESET_REQUIRED', 'FORCE_CHANGE_PASSWORD']);

export const playerAuthSettings = z
  .object({
    enabled: z.boolean().meta({ description: 'Whether the game API answers /v1/players calls.' }),
    reg_type: regType.meta({ description: 'email_un_pwd: email, name and password; un_pwd: name and password.' }),
    email_confirmation: z
      .boolean()
      .meta({ description: 'With email_un_pwd: new players confirm their address with an emailed code.' }),
    session_duration_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_SESSION_DURATION_SECONDS)
      .meta({ description: 'Lifetime of a player session; 0 means it never expires.' }),
    saved_session_days: z.number().int().min(1).max(365).meta({ description: 'Lifetime of a "remember me" session.' }),
    require_player_session: z.boolean().meta({
      description: "When on, saving a score or data under a registered player's name needs that player's session.",
    }),
  })
  .meta({ id: 'PlayerAuthSettings' });
export type PlayerAuthSettings = z.infer<typeof playerAuthSettings>;

const whole = (label: string, min: number, max: number) =>
  z
    .number({ message: `${label} must be a whole number from ${min} to ${max}.` })
    .int({ message: `${label} must be a whole number from ${min} to ${max}.` })
    .min(min, { message: `${label} must be a whole number from ${min} to ${max}.` })
    .max(max, { message: `${label} must be a whole number from ${min} to ${max}.` });

/** Fields left out keep their values, so a toggle can send just its own field. */
export const updatePlayerAuthBody = z.object({
  enabled: z.boolean({ message: 'enabled must be true or false.' }).optional(),
  reg_type: z.enum(['email_un_pwd', 'un_pwd'], { message: 'reg_type must be email_un_pwd or un_pwd.' }).optional(),
  email_confirmation: z.boolean({ message: 'email_confirmation must be true or false.' }).optional(),
  session_duration_seconds: whole('session_duration_seconds', 0, MAX_SESSION_DURATION_SECONDS).optional(),
  saved_session_days: whole('saved_session_days', 1, 365).optional(),
  require_player_session: z.boolean({ message: 'require_player_session must be true or false.' }).optional(),
});

const subject = (label: string) =>
  singleLine(
    z
      .string()
      .trim()
      .max(MAX_EMAIL_SUBJECT, { message: `${label} can be at most ${MAX_EMAIL_SUBJECT} characters.` }),
    label,
  );
const body = (label: string) =>
  z.string().max(MAX_EMAIL_BODY, { message: `${label} can be at most ${MAX_EMAIL_BODY} characters.` });

/** The game's code mails as they go out: custom text where set, the defaults elsewhere. */
export const playerEmailSettings = z
  .object({
    confirmation_subject: z.string(),
    confirmation_body: z.string().meta({ description: `Plain text; ${CODE_PLACEHOLDER} is replaced by the code.` }),
    reset_subject: z.string(),
    reset_body: z.string(),
    reply_to: z.string().nullable().meta({ description: 'Replies go here; the sender is fixed by the server.' }),
    customized: z.boolean().meta({ description: 'false while every field is the default.' }),
  })
  .meta({ id: 'PlayerEmailSettings' });
export type PlayerEmailSettings = z.infer<typeof playerEmailSettings>;

/** Fields left out keep their values; null or an empty string brings back the default. */
export const updatePlayerEmailBody = z.object({
  confirmation_subject: subject('The confirmation subject').nullable().optional(),
  confirmation_body: body('The confirmation body').nullable().optional(),
  reset_subject: subject('The reset subject').nullable().optional(),
  reset_body: body('The reset body').nullable().optional(),
  reply_to: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(
      z.union([
        z.literal(''),
        z
          .email({ message: 'The reply-to address must be an email address.' })
          .max(254, { message: 'The reply-to address can be at most 254 characters.' }),
      ]),
    )
    .nullable()
    .optional(),
});
export type UpdatePlayerEmailBody = z.infer<typeof updatePlayerEmailBody>;

const playerListItem = z.object({
  id: z.string().nullable().meta({ description: 'The account id; null for a name that only has player data.' }),
  player_name: z.string(),
  email: z.string().nullable(),
  enabled: z.boolean(),
  state: accountState.nullable(),
  created_at: z.number().nullable().meta({ description: 'Epoch seconds; null for a name without an account.' }),
  player_data: z.unknown().nullable(),
});
export const playersPage = z
  .object({
    players: z.array(playerListItem),
    cursor: z.string().nullable().meta({ description: 'Pass it back as ?cursor= for the next page; null at the end.' }),
  })
  .meta({ id: 'PlayersPage' });
export type PlayersPage = z.infer<typeof playersPage>;

/** What disabling or enabling a player answers. */
export const playerEnabledResponse = z.object({ player_name: z.string(), enabled: z.boolean() });

export const setPlayerPasswordBody = z.object({
  password: z
    .string({ message: 'Please enter a new password for this player.' })
    .max(256, { message: 'Passwords can be at most 256 characters.' }),
});

const confirmPassword = z.string().max(256, { message: 'Passwords can be at most 256 characters.' });

// The game API's bodies. Emails are checked by the server, so a bad one answers InvalidEmail.
/**
 * A new account's name: a browser drops "." and ".." from a web address, so the dashboard could not
 * manage such an account. Only new accounts are refused (registered or imported); names games
 * already send for scores and data keep working.
 */
export const accountName = playerName.refine((name) => name !== '.' && name !== '..', {
  message: 'player_name cannot be "." or "..".',
});

export const registerPlayerBody = z.object({
  player_name: accountName,
  email: z.string().max(254, { message: 'Please enter a valid email address.' }).optional(),
  password,
  confirm_password: confirmPassword,
});
export const confirmPlayerBody = z.object({ player_name: playerName, code: confirmationCode });
export const playerNameBody = z.object({ player_name: playerName });
export const loginPlayerBody = z.object({
  player_name: playerName,
  password,
  remember_me: z.boolean({ message: 'remember_me must be true or false.' }).default(false),
});
export const resumeSessionBody = z.object({
  // Its token, or the whole `saved_session` object login answered, sent back as it came.
  saved_session: z
    .preprocess(
      (v) => (v !== null && typeof v === 'object' && 'token' in v ? v.token : v),
      z
        .string({
          error: (issue) =>
            issue.input === undefined
              ? 'saved_session is required.'
              : "saved_session must be the saved session's token (text), or the saved_session object login answered.",
        })
        .min(1)
        .max(200),
    )
    .meta({ description: "The saved session's token; the whole saved_session object login answered is taken too." }),
});
export const logoutPlayerBody = z.object({
  all: z.boolean({ message: 'all must be true or false.' }).default(false),
});
export const confirmPasswordResetBody = z.object({
  player_name: playerName,
  code: confirmationCode,
  password,
  confirm_password: confirmPassword,
});

export const playerProfile = z
  .object({ player_name: z.string(), email: z.string().nullable(), state: accountState })
  .meta({ id: 'Player' });

export const registerPlayerResponse = z.object({
  player: playerProfile,
  confirmation_required: z.boolean().meta({ description: 'true: a code was emailed; confirm before logging in.' }),
});

export const playerSession = z
  .object({
    access_token: z.string().meta({ description: 'Send it as `Authorization: Bearer <token>`.' }),
    expires_at: z.string().nullable().meta({ description: 'ISO 8601; null means it never expires.' }),
    saved_session: z
      .object({ token: z.string(), expires_at: z.string() })
      .optional()
      .meta({ description: 'Only with remember_me: keep it on the device and resume with it later.' }),
    player: playerProfile,
  })
  .meta({ id: 'PlayerSession' });
export type PlayerSession = z.infer<typeof playerSession>;
