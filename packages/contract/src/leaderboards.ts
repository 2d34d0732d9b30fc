import { z } from 'zod';
import { singleLine } from './auth.js';
import { queryWholeNumber } from './query.js';

export const insertOptions = ['keep', 'highest', 'latest', 'accumulator'] as const;
export const resetPeriods = ['na', 'hourly', 'daily', 'weekly', 'monthly', 'yearly'] as const;
export const maxEntriesOptions = [10, 20, 30, 40, 50, 100, 200, 500, 1000] as const;
export type InsertOption = (typeof insertOptions)[number];
export type ResetPeriod = (typeof resetPeriods)[number];
export type SortOrder = 'desc' | 'asc';

/** Scores beyond this size lose whole-number precision in a double: refused rather than silently rounded. */
export const MAX_ABS_SCORE = 1e15;
export const scoreInRange = (v: number) => Number.isFinite(v) && Math.abs(v) <= MAX_ABS_SCORE;
/** An accumulator's total stops at the range's ends rather than leave it. */
export const clampScore = (v: number) => Math.min(Math.max(v, -MAX_ABS_SCORE), MAX_ABS_SCORE);

export const leaderboardName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { message: 'Leaderboard names are 1–64 letters, digits, _ or -.' })
  .meta({ description: 'Unique in the game; fixed after creation.' });

const maxEntries = z
  .union([z.literal(maxEntriesOptions), z.null()], {
    message: `max_entries must be one of ${maxEntriesOptions.join(', ')}, or null for unlimited.`,
  })
  .meta({
    description: 'How many entries a period keeps: 10, 20, 30, 40, 50, 100, 200, 500, 1000, or null for unlimited.',
  });

const settings = {
  display_name: singleLine(
    z.string().trim().max(100, { message: 'Display names can be at most 100 characters.' }),
    'The display name',
  ),
  insert_option: z.enum(insertOptions, { message: 'insert_option must be keep, highest, latest or accumulator.' }),
  time_based: z.enum(resetPeriods, { message: 'time_based must be na, hourly, daily, weekly, monthly or yearly.' }),
  timezone: z
    .string()
    .max(64)
    .nullable()
    .meta({ description: 'IANA time zone of the resets; required when time based.' }),
  max_entries: maxEntries,
  sort: z
    .enum(['desc', 'asc'], { message: 'sort must be desc or asc.' })
    .meta({ description: 'desc: higher is better (default); asc: lower is better.' }),
};

export const createLeaderboardBody = z.object({
  name: leaderboardName,
  display_name: settings.display_name.optional(),
  insert_option: settings.insert_option.default('keep'),
  time_based: settings.time_based.default('na'),
  timezone: settings.timezone.optional(),
  max_entries: settings.max_entries.default(10),
  sort: settings.sort.default('desc'),
});
export type CreateLeaderboardBody = z.output<typeof createLeaderboardBody>;

export const updateLeaderboardBody = z.object({
  display_name: settings.display_name.optional(),
  insert_option: settings.insert_option.optional(),
  time_based: settings.time_based.optional(),
  timezone: settings.timezone.optional(),
  max_entries: settings.max_entries.optional(),
  sort: settings.sort.optional(),
});
export type UpdateLeaderboardBody = z.output<typeof updateLeaderboardBody>;

export const leaderboard = z
  .object({
    name: z.string(),
    display_name: z.string(),
    insert_option: z.enum(insertOptions),
    time_based: z.enum(resetPeriods),
    timezone: z.string().nullable(),
    max_entries: z.number().nullable(),
    sort: z.enum(['desc', 'asc']),
    created_at: z.string(),
  })
  .meta({ id: 'Leaderboard' });
export type Leaderboard = z.infer<typeof leaderboard>;

/** A leaderboard as the dashboard lists it: with the engines its scores came from and its size. */
const leaderboardWithStats = leaderboard.extend({
  engine: z
    .enum(['3', '4', 'both', '-'])
    .meta({ description: "Engines of the board's scores: 3, 4, both, or - when empty." }),
  entry_count: z.number(),
});
export const leaderboardsResponse = z.object({ leaderboards: z.array(leaderboardWithStats) });
export type LeaderboardWithStats = z.infer<typeof leaderboardWithStats>;

/** A score's metadata may not exceed this many bytes of compact UTF-8 JSON. */
export const MAX_METADATA_BYTES = 4096;

/** Metadata: strings, numbers, booleans and nested objects. */
export type Metadata = { [key: string]: string | number | boolean | Metadata };
// It nests itself by its registered id, so the OpenAPI document names the recursion instead of leaving it dangling.
export const metadata: z.ZodType<Metadata> = z
  .lazy(() =>
    z.record(
      z.string(),
      z.union([z.string(), z.number(), z.boolean(), metadata], {
        message: 'metadata holds text, numbers, true or false, and objects of them (no lists, no null).',
      }),
    ),
  )
  .meta({
    id: 'Metadata',
    description: 'A JSON object of strings, numbers, booleans and nested objects, at most 4,096 bytes.',
  });

// Letters of these scripts look alike (Latin e, Cyrillic е, Greek ε): a name keeps to one of them.
const LOOK_ALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Greek}/u, /\p{Script=Cyrillic}/u];
const mixesLookAlikeScripts = (name: string) => LOOK_ALIKE_SCRIPTS.filter((script) => script.test(name)).length > 1;

/**
 * Player (and character) names, compared and stored in NFKC form, so a full-width or decomposed
 * spelling is the same name; `label` is the field its messages name. What is refused, and what is
 * not caught, is in docs/players.md.
 */
export const nameRule = (label: string) =>
  singleLine(
    z
      .string({
        error: (issue) => (issue.input === undefined ? `${label} is required.` : `${label} must be text.`),
      })
      .normalize('NFKC')
      .trim()
      .min(1, { message: `${label} cannot be empty.` })
      .max(100, { message: `${label} can be at most 100 characters.` }),
    label,
  ).refine((name) => !mixesLookAlikeScripts(name), {
    message: `${label} cannot mix Latin, Greek and Cyrillic letters.`,
  });

export const playerName = nameRule('player_name').meta({
  description: 'Trimmed and NFKC-normalised; 1–100 characters, see docs/players.md.',
});

export const submitScoreBody = z.object({
  player_name: playerName,
  score: z
    .number({ message: 'score must be a number.' })
    .meta({ description: 'A finite number; negative and fractional allowed.' }),
  metadata: metadata.optional(),
});

export const submitScoreResponse = z.object({
  score_id: z.string(),
  position: z
    .number()
    .nullable()
    .meta({ description: '1-based position; null when the score did not make the board.' }),
  kept: z.boolean().meta({ description: 'false when the score did not change the board.' }),
});

export const scoreEntry = z
  .object({
    score_id: z.string(),
    player_name: z.string(),
    score: z.number(),
    timestamp: z.number().meta({ description: 'Epoch milliseconds, set by the server.' }),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    position: z.number(),
    engine: z.union([z.literal(3), z.literal(4), z.null()]),
  })
  .meta({ id: 'Score' });
export type ScoreEntry = z.infer<typeof scoreEntry>;

export const period = z
  .object({ offset: z.number(), start: z.string(), end: z.string(), next_reset: z.string() })
  .nullable()
  .meta({ description: 'The period the answer is about (ISO instants); null on boards without resets.' });

export const scoresPage = z.object({
  scores: z.array(scoreEntry),
  period,
  cursor: z.string().nullable().meta({ description: 'Pass as ?cursor= for the next page; null at the end.' }),
});
export type ScoresPage = z.infer<typeof scoresPage>;

/** How far back a query may look: 1,000 periods (six weeks of hours, almost three years of days). */
const MAX_PERIODS_BACK = 1000;

export const periodOffset = queryWholeNumber('period_offset', -MAX_PERIODS_BACK, 0, 0).meta({
  description: `0 is the current period, -1 the one before, and so on, down to -${MAX_PERIODS_BACK}.`,
});

export const deleteScoresBody = z.object({
  score_ids: z
    .array(z.string().min(1).max(64))
    .min(1, { message: 'Send at least one score id.' })
    .max(500, { message: 'At most 500 score ids at once.' }),
});

/** What deleting scores by id answers: how many were there to delete. */
export const deleteScoresResponse = z.object({ deleted: z.number() });
