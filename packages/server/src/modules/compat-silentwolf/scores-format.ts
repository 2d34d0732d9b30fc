import { leaderboardName, periodOffset, type Leaderboard, type ScoreEntry } from '@howl/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { header } from '../games/game-api.js';
import { MAX_PAGE } from '../leaderboards/reads.js';
import { orAbsent } from './answers.js';

/**
 * A score as both plugin generations read it: 0.6.x the long keys, 0.9.x the short ones (and
 * 0.9.7+ translates them back), so every object carries both; `md`/`metadata` only when present.
 */
export function swScore(e: ScoreEntry) {
  return {
    sid: e.score_id,
    score_id: e.score_id,
    pn: e.player_name,
    player_name: e.player_name,
    s: e.score,
    score: e.score,
    t: e.timestamp,
    timestamp: e.timestamp,
    ...(e.metadata === null ? {} : { md: e.metadata, metadata: e.metadata }),
    position: e.position,
  };
}

/**
 * The board's settings as `ld_config`. The plugin needs `insert_opt`, and tests the mere presence
 * of `time_based` to tell a board that resets, so that key (and its time zone) is only there then.
 */
export function ldConfig(b: Leaderboard) {
  return {
    insert_opt: b.insert_option,
    ...(b.time_based === 'na' ? {} : { time_based: b.time_based, timezone: b.timezone }),
    max_entries: b.max_entries,
    display_name: b.display_name,
    sort: b.sort,
  };
}

/** The plugin files an answer under the current period unless it carries `period_offset`: echoed only when non-zero. */
export const periodEcho = (offset: number) => (offset === 0 ? {} : { period_offset: offset });

/** A position the plugin turns into a number with `int()`: 0 when the score is past the board's size. */
export const swPosition = (position: number | null) => position ?? 0;

/** `ldboard_name`, `main` when not sent. */
export const boardField = orAbsent(leaderboardName).transform((v) => v ?? 'main');

/** `period_offset` (Godot 4 sends `-1.0`), 0 when not sent. */
export const periodField = orAbsent(periodOffset).transform((v) => v ?? 0);

const maxMessage = { message: 'max must be a whole number, 0 for all.' };
/** `max`: 0 means all; more than the game API's largest page is read as that page, not refused. */
export const maxField = orAbsent(z.coerce.number(maxMessage).int(maxMessage).min(0, maxMessage)).transform((v) =>
  Math.min(v ?? 10, MAX_PAGE),
);

/** 3 or 4: Godot's major version, or the plugin line's engine when the call does not say (0.6.x scores). */
export function swEngine(request: FastifyRequest): 3 | 4 | null {
  const godot = header(request, 'x-sw-godot-version')?.split('.')[0];
  if (godot === '3' || godot === '4') return Number(godot) as 3 | 4;
  const plugin = header(request, 'x-sw-plugin-version');
  return plugin?.startsWith('0.9.') ? 4 : plugin?.startsWith('0.6.') ? 3 : null;
}
