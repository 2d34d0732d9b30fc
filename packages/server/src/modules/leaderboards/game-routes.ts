import {
  errorResponse,
  leaderboardName,
  MAX_ABS_SCORE,
  okResponse,
  period,
  periodOffset,
  playerName,
  queryWholeNumber,
  scoreEntry,
  scoreInRange,
  scoresPage,
  submitScoreBody,
  submitScoreResponse,
} from '@howl/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GAME_API_SECURITY } from '../games/game-api.js';
import type { GameRow } from '../games/games.table.js';
import { leaderboardErrors } from './errors.js';
import { MAX_AROUND, MAX_PAGE } from './reads.js';
import type { Leaderboards } from './service.js';

const tags = ['leaderboards (game API)'];
const errors = { 400: errorResponse, 403: errorResponse, 404: errorResponse, 413: errorResponse, 429: errorResponse };
const board = z.object({ name: leaderboardName });
const boardPlayer = z.object({ name: leaderboardName, player: playerName });
const max = (fallback: number) =>
  queryWholeNumber('max', 0, MAX_PAGE, fallback).meta({
    description: `How many to answer; 0 means all, up to ${MAX_PAGE} (then a cursor).`,
  });
const scoreRange = { message: `score must be a number between -${MAX_ABS_SCORE} and ${MAX_ABS_SCORE}.` };
/** In a body the score must be a JSON number; `"12"` is refused, not guessed at. */
export const bodyScore = z.number({ message: 'score must be a number.' }).refine(scoreInRange, scoreRange);
/** In a query string everything is text, so the value is read as a number. */
export const queryScore = z
  .string()
  .trim()
  .min(1, { message: 'score must be a number.' })
  .transform(Number)
  .pipe(z.number({ message: 'score must be a number.' }).refine(scoreInRange, scoreRange));
const scoreOrId = {
  score_id: z.string().max(64).optional(),
  score: queryScore.optional(),
  period_offset: periodOffset,
};
type ScoreOrId = { score_id?: string | undefined; score?: number | undefined };
const oneOf = (q: ScoreOrId) => q.score_id !== undefined || q.score !== undefined;
const oneOfMessage = { message: 'Send score_id or score.', path: ['score_id'] };
// Both would leave one of them unanswered without a word.
const notBoth = (q: ScoreOrId) => q.score_id === undefined || q.score === undefined;
const notBothMessage = { message: 'Send score_id or score, not both.', path: ['score'] };

/** 3 or 4 from `x-howl-engine` (e.g. `4.2.1`), else null. */
function engineOf(request: FastifyRequest): 3 | 4 | null {
  const major = String(request.headers['x-howl-engine'] ?? '').split('.')[0];
  return major === '3' ? 3 : major === '4' ? 4 : null;
}

/** Deleting and wiping from a game only where the developer allows it (`allow_client_deletes`). */
export function requireClientDeletes(game: GameRow): void {
  if (game.allow_client_deletes !== 1) throw leaderboardErrors.clientDeletesDisabled();
}

/** Refuses a write under a player's name the caller may not use (see `require_player_session`). */
export type WriterCheck = (game: GameRow, playerName: string, authorization: string | undefined) => Promise<void>;

/** `/v1/leaderboards/…` and `/v1/scores/…`: what games call. Registered behind the game API's front door. */
export const leaderboardGameRoutes = (
  leaderboards: Leaderboards,
  requireWriter: WriterCheck = async () => {},
): FastifyPluginAsyncZod =>
  async function leaderboardGameApi(v1) {
    const gameOf = (request: FastifyRequest) => request.game!.id;
    const deletesAllowed = (request: FastifyRequest) => requireClientDeletes(request.game!);
    const schema = { tags, security: GAME_API_SECURITY };

    v1.post(
      '/v1/leaderboards/:name/scores',
      {
        schema: {
          ...schema,
          summary: 'Save a score; answers its position and whether it changed the board',
          params: board,
          body: submitScoreBody.extend({ score: bodyScore }),
          response: { 200: submitScoreResponse, ...errors },
        },
      },
      async (request) => {
        await requireWriter(request.game!, request.body.player_name, request.headers.authorization);
        return leaderboards.submit(gameOf(request), request.params.name, request.body, engineOf(request));
      },
    );

    v1.get(
      '/v1/leaderboards/:name/scores',
      {
        schema: {
          ...schema,
          summary: 'The best scores of a period',
          params: board,
          querystring: z.object({ max: max(10), period_offset: periodOffset, cursor: z.string().max(2000).optional() }),
          response: { 200: scoresPage, ...errors },
        },
      },
      async (request) => leaderboards.scores(gameOf(request), request.params.name, request.query),
    );

    v1.get(
      '/v1/leaderboards/:name/players/:player/scores',
      {
        schema: {
          ...schema,
          summary: "A player's scores in a period, best first",
          params: boardPlayer,
          querystring: z.object({ max: max(10), period_offset: periodOffset }),
          response: { 200: scoresPage, ...errors },
        },
      },
      async (request) =>
        leaderboards.playerScores(gameOf(request), request.params.name, request.params.player, request.query),
    );

    v1.get(
      '/v1/leaderboards/:name/players/:player/top',
      {
        schema: {
          ...schema,
          summary: "A player's best score in a period (null when none)",
          params: boardPlayer,
          querystring: z.object({ period_offset: periodOffset }),
          response: { 200: z.object({ score: scoreEntry.nullable(), period }), ...errors },
        },
      },
      async (request) =>
        leaderboards.playerTop(gameOf(request), request.params.name, request.params.player, request.query),
    );

    v1.get(
      '/v1/leaderboards/:name/position',
      {
        schema: {
          ...schema,
          summary: 'The position of a saved score, or the one a value would take',
          params: board,
          querystring: z.object(scoreOrId).refine(oneOf, oneOfMessage).refine(notBoth, notBothMessage),
          response: { 200: z.object({ position: z.number().nullable(), period }), ...errors },
        },
      },
      async (request) => leaderboards.position(gameOf(request), request.params.name, request.query),
    );

    v1.get(
      '/v1/leaderboards/:name/around',
      {
        schema: {
          ...schema,
          summary: 'Scores just above and below a saved score or a value',
          params: board,
          querystring: z
            .object({
              ...scoreOrId,
              count: queryWholeNumber('count', 0, MAX_AROUND, 3),
            })
            .refine(oneOf, oneOfMessage)
            .refine(notBoth, notBothMessage),
          response: {
            200: z.object({
              position: z.number().nullable(),
              scores_above: z.array(scoreEntry),
              scores_below: z.array(scoreEntry),
              period,
            }),
            ...errors,
          },
        },
      },
      async (request) => leaderboards.around(gameOf(request), request.params.name, request.query),
    );

    v1.delete(
      '/v1/leaderboards/:name/scores',
      {
        schema: {
          ...schema,
          summary: 'Wipe a leaderboard (every period)',
          params: board,
          response: { 200: okResponse, ...errors },
        },
      },
      async (request) => {
        deletesAllowed(request);
        await leaderboards.wipe(gameOf(request), request.params.name);
        return { ok: true as const };
      },
    );

    v1.delete(
      '/v1/scores/:scoreId',
      {
        schema: {
          ...schema,
          summary: 'Delete one score',
          params: z.object({ scoreId: z.string().max(64) }),
          response: { 200: okResponse, ...errors },
        },
      },
      async (request) => {
        deletesAllowed(request);
        await leaderboards.deleteScore(gameOf(request), request.params.scoreId);
        return { ok: true as const };
      },
    );
  };
