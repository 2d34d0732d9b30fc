import { z } from 'zod';
import { plainIssueMessage } from './messages.js';
import { email } from './auth.js';
import {
  leaderboardName,
  MAX_ABS_SCORE,
  MAX_METADATA_BYTES,
  metadata,
  playerName,
  scoreInRange,
  type Metadata,
} from './leaderboards.js';
import { MAX_PLAYER_DATA_BYTES } from './player-data.js';
import { accountName } from './players.js';

/** One import call: a game's scores, players and player data moving from another service (docs/silentwolf.md, "Bring your data"). */
export const IMPORT_MAX_BODY_BYTES = 20 * 1024 * 1024;
export const IMPORT_MAX_SCORES = 50_000;
export const IMPORT_MAX_PLAYERS = 50_000;
export const IMPORT_MAX_BOARDS = 100;

// A global in browsers and Node alike; the contract's compiler settings name neither platform's types.
declare const TextEncoder: new () => { encode(text: string): Uint8Array };
const jsonBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/** A row's value under either of two names (SilentWolf's short and long keys); the short one wins when both are there. */
export function either<T>(row: Record<string, unknown>, short: string, long: string): T | undefined {
  return (row[short] ?? row[long]) as T | undefined;
}

// Whole keys are optional here; the row's check below says which one is missing, under the name the row uses.
// Up to the end of the year 9999: the periods of a board in any time zone can be reckoned for it
// (near the very end of JavaScript's dates, a board's local period, or the one after, has no date).
const LAST_TIMESTAMP = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const timestamp = z
  .number({ message: 'The timestamp must be a number (epoch milliseconds).' })
  .min(0, { message: 'The timestamp must be epoch milliseconds, at least 0.' })
  .max(LAST_TIMESTAMP, { message: 'The timestamp must be epoch milliseconds, at most the end of the year 9999.' });
const scoreValue = z
  .number({ message: 'The score must be a number.' })
  .refine(scoreInRange, { message: `The score must be a number between -${MAX_ABS_SCORE} and ${MAX_ABS_SCORE}.` });

const importedScore = z
  .object({
    sid: z.unknown().optional(),
    score_id: z.unknown().optional(),
    pn: playerName.optional(),
    player_name: playerName.optional(),
    s: scoreValue.optional(),
    score: scoreValue.optional(),
    t: timestamp.nullish(),
    timestamp: timestamp.nullish(),
    md: metadata.nullish(),
    metadata: metadata.nullish(),
  })
  .superRefine((row, ctx) => {
    const short = ['sid', 'pn', 's', 't', 'md'].some((k) => k in row);
    const need = (key: string, long: string, what: string) => {
      if (either(row, key, long) === undefined) {
        ctx.addIssue({ code: 'custom', path: [short ? key : long], message: `Each score needs ${what}.` });
      }
    };
    need('pn', 'player_name', 'a player name (pn or player_name)');
    need('s', 'score', 'a score (s or score)');
    const md = either<Metadata | null>(row, 'md', 'metadata');
    const bytes = md ? jsonBytes(md) : 0;
    if (bytes > MAX_METADATA_BYTES) {
      ctx.addIssue({
        code: 'custom',
        path: ['md' in row ? 'md' : 'metadata'],
        message: `Metadata is ${bytes} bytes; the limit is ${MAX_METADATA_BYTES} bytes.`,
      });
    }
  })
  .meta({
    description:
      'A score in SilentWolf short keys (sid, pn, s, t, md) or long keys (score_id, player_name, score, timestamp, metadata).',
  });

const importedBoard = z.object({
  name: leaderboardName,
  scores: z.array(importedScore).max(IMPORT_MAX_SCORES, {
    message: `An import can hold at most ${IMPORT_MAX_SCORES} scores. Split it into several calls.`,
  }),
});

const playerDocument = z
  .record(z.string(), z.unknown(), { message: 'Player data must be a JSON object.' })
  .superRefine((doc, ctx) => {
    const bytes = jsonBytes(doc);
    if (bytes > MAX_PLAYER_DATA_BYTES) {
      ctx.addIssue({
        code: 'custom',
        message: `This player data is ${bytes} bytes; the limit is ${MAX_PLAYER_DATA_BYTES} bytes.`,
      });
    }
  });

const HOWL_EXPORT_REFUSED =
  "This is a Howl player data export (playerdata.json from the dashboard): the import takes SilentWolf's files, and would lose this one's characters and game state. Save documents with the game API (PUT /v1/player-data/…) instead.";

const emailOrNone = z.union([email, z.literal(''), z.null()], { message: 'Please enter a valid email address.' });

const importedPlayer = z
  .object({
    pn: accountName.optional(),
    player_name: accountName.optional(),
    em: emailOrNone.optional(),
    email: emailOrNone.optional(),
    en: z.boolean({ message: 'enabled must be true or false.' }).optional(),
    enabled: z.boolean({ message: 'enabled must be true or false.' }).optional(),
    co: z.number({ message: 'created_at must be epoch seconds.' }).min(0).max(8.64e12).nullish(),
    created_at: z.number({ message: 'created_at must be epoch seconds.' }).min(0).max(8.64e12).nullish(),
    pd: playerDocument.nullish(),
    player_data: playerDocument.nullish(),
    // Howl's own export has it; read here only to refuse that file (below).
    characters: z.unknown().optional(),
  })
  .superRefine((row, ctx) => {
    if (either(row, 'pn', 'player_name') === undefined) {
      ctx.addIssue({ code: 'custom', path: ['player_name'], message: 'Each player needs a name (pn or player_name).' });
    }
  })
  .meta({ description: "A player as SilentWolf's dashboard lists it (pn, em, en, co, pd) or in long keys." });

const playerDataEntry = z
  .object({
    pn: playerName.optional(),
    player_name: playerName.optional(),
    pd: playerDocument.nullish(),
    player_data: playerDocument.nullish(),
  })
  .superRefine((row, ctx) => {
    if (either(row, 'pn', 'player_name') === undefined) {
      ctx.addIssue({ code: 'custom', path: ['player_name'], message: 'Each entry needs a player name.' });
    }
  });
const playerDataList = z.array(playerDataEntry).max(IMPORT_MAX_PLAYERS, {
  message: `An import can hold player data of at most ${IMPORT_MAX_PLAYERS} players.`,
});
const playerDataMap = z.record(playerName, playerDocument.nullable(), {
  message: 'player_data must be a JSON object of players or a list of entries.',
});
// The section is parsed on its own, so issues' paths start inside it: its words name the whole path.
const inSection = {
  error: (issue: z.core.$ZodRawIssue) => plainIssueMessage({ ...issue, path: ['player_data', ...(issue.path ?? [])] }),
};

/** `{ "<name>": {…} }` (playerdata.json) or `[{ player_name|pn, player_data|pd }]`; checked by its shape, so errors name the bad entry. */
const playerDataSection = z
  .unknown()
  .superRefine((value, ctx) => {
    const result = (Array.isArray(value) ? playerDataList : playerDataMap).safeParse(value, inSection);
    if (result.success) return;
    for (const issue of result.error.issues) {
      ctx.addIssue({
        code: 'custom',
        path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
        message: issue.message,
      });
    }
    if (!Array.isArray(value) && Object.keys(value ?? {}).length > IMPORT_MAX_PLAYERS) {
      ctx.addIssue({
        code: 'custom',
        message: `An import can hold player data of at most ${IMPORT_MAX_PLAYERS} players.`,
      });
    }
  })
  .meta({ description: 'A map of player name to data, or a list of { player_name | pn, player_data | pd }.' });

export const importBody = z
  .object({
    leaderboards: z
      .array(importedBoard)
      .max(IMPORT_MAX_BOARDS, { message: `An import can name at most ${IMPORT_MAX_BOARDS} leaderboards.` })
      .optional(),
    players: z
      .array(importedPlayer)
      .max(IMPORT_MAX_PLAYERS, { message: `An import can hold at most ${IMPORT_MAX_PLAYERS} players.` })
      .optional(),
    player_data: playerDataSection.optional(),
    exported_at: z.unknown().optional(),
    game_state: z.unknown().optional(),
  })
  .superRefine((body, ctx) => {
    // Its `players` are documents, not accounts: imported, each name would become an account without
    // a password, and its characters and game state would be dropped without a word.
    const characters = (body.players ?? []).findIndex((p) => p.characters !== undefined);
    if (body.exported_at !== undefined || body.game_state !== undefined || characters >= 0) {
      ctx.addIssue({
        code: 'custom',
        path:
          characters >= 0
            ? ['players', characters, 'characters']
            : [body.game_state !== undefined ? 'game_state' : 'exported_at'],
        message: HOWL_EXPORT_REFUSED,
      });
    }
    const scores = (body.leaderboards ?? []).reduce((n, b) => n + b.scores.length, 0);
    if (scores > IMPORT_MAX_SCORES) {
      ctx.addIssue({
        code: 'custom',
        path: ['leaderboards'],
        message: `An import can hold at most ${IMPORT_MAX_SCORES} scores; this one has ${scores}. Split it into several calls.`,
      });
    }
  });

export type ImportBody = z.infer<typeof importBody>;
export type ImportedScoreRow = z.infer<typeof importedScore>;
export type ImportedPlayerDataEntry = z.infer<typeof playerDataEntry>;

export const importResponse = z
  .object({
    scores: z.object({ imported: z.number(), skipped: z.number() }),
    players: z.object({
      imported: z.number(),
      skipped: z.number().meta({ description: 'Names that already had an account, or came twice.' }),
      without_email: z
        .number()
        .meta({ description: 'Imported players without an email address: they cannot reset their password.' }),
    }),
    player_data: z.object({ imported: z.number() }),
  })
  .meta({ id: 'ImportResult' });

export type ImportResult = z.infer<typeof importResponse>;
