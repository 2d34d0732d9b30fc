import { playerName, submitScoreBody } from '@howl/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bodyScore, queryScore, requireClientDeletes, type WriterCheck } from '../leaderboards/game-routes.js';
import { MAX_AROUND } from '../leaderboards/reads.js';
import type { Leaderboards } from '../leaderboards/service.js';
import { orAbsent } from './answers.js';
import { noteScoreDigest } from './digest.js';
import { playerAuthorization } from './player-session.js';
import {
  boardField,
  ldConfig,
  maxField,
  periodEcho,
  periodField,
  swEngine,
  swPosition,
  swScore,
} from './scores-format.js';

// The plugin's own paths: left out of the game API's reference at /api/docs (docs/silentwolf.md describes them).
const schema = { hide: true };
const gameParam = z.object({ gameId: z.string().max(200) });
const scoreId = orAbsent(z.string().max(64));

const saveBody = submitScoreBody.extend({
  score: bodyScore,
  // Any text: a UUID no entry has yet becomes the entry's id, anything else gets a fresh one.
  score_id: orAbsent(z.string().max(200)),
  ldboard_name: boardField,
  // The plugin leaves metadata out when empty; an empty object sent anyway is none either.
  metadata: submitScoreBody.shape.metadata.transform((m) => (m && Object.keys(m).length > 0 ? m : undefined)),
});
const byPlayerQuery = z.object({
  max: maxField,
  ldboard_name: boardField,
  player_name: playerName,
  period_offset: periodField,
});
const countMessage = { message: 'scores_to_fetch must be a whole number, at least 0.' };

/** Scores (protocol note §5.1): each path parses the plugin's shape and calls what `/v1/leaderboards` calls. */
export const silentWolfScoreRoutes = (leaderboards: Leaderboards, requireWriter: WriterCheck): FastifyPluginAsyncZod =>
  async function silentWolfScores(sw) {
    const gameOf = (request: FastifyRequest) => request.game!.id;
    /** `ld_name` and `ld_config`, which every read answers; 404 in the plugin's envelope for an unknown board. */
    const board = async (request: FastifyRequest, name: string) => ({
      ld_name: name,
      ld_config: ldConfig(await leaderboards.settings(gameOf(request), name)),
    });

    for (const path of ['/save_score', '/post_new_score']) {
      sw.post(path, { schema: { ...schema, body: saveBody } }, async (request) => {
        const { ldboard_name, ...input } = request.body;
        noteScoreDigest(request, input.player_name, input.score);
        await requireWriter(request.game!, input.player_name, playerAuthorization(request));
        const saved = await leaderboards.submit(gameOf(request), ldboard_name, input, swEngine(request));
        return { success: true, score_id: saved.score_id };
      });
    }

    for (const path of ['/get_scores/:gameId', '/get_top_scores/:gameId']) {
      sw.get(
        path,
        {
          schema: {
            ...schema,
            params: gameParam,
            querystring: z.object({ max: maxField, ldboard_name: boardField, period_offset: periodField }),
          },
        },
        async (request) => {
          const { max, ldboard_name, period_offset } = request.query;
          const ld = await board(request, ldboard_name);
          const page = await leaderboards.scores(gameOf(request), ldboard_name, { max, period_offset });
          return { success: true, top_scores: page.scores.map(swScore), ...ld, ...periodEcho(period_offset) };
        },
      );
    }

    sw.get(
      '/get_scores_by_player/:gameId',
      { schema: { ...schema, params: gameParam, querystring: byPlayerQuery } },
      async (request) => {
        const { max, ldboard_name, player_name, period_offset } = request.query;
        const ld = await board(request, ldboard_name);
        const page = await leaderboards.playerScores(gameOf(request), ldboard_name, player_name, {
          max,
          period_offset,
        });
        return { success: true, top_scores: page.scores.map(swScore), player_name, ...ld };
      },
    );

    sw.get(
      '/get_top_score_by_player/:gameId',
      { schema: { ...schema, params: gameParam, querystring: byPlayerQuery } },
      async (request) => {
        const { ldboard_name, player_name, period_offset } = request.query;
        const ld = await board(request, ldboard_name);
        const top = await leaderboards.playerTop(gameOf(request), ldboard_name, player_name, { period_offset });
        return { success: true, top_score: top.score ? swScore(top.score) : {}, player_name, ...ld };
      },
    );

    sw.post(
      '/get_score_position',
      {
        schema: {
          ...schema,
          body: z.object({
            ldboard_name: boardField,
            score_id: scoreId,
            score_value: orAbsent(bodyScore),
            score: orAbsent(bodyScore),
          }),
        },
      },
      async (request) => {
        const { ldboard_name, score_id, score_value, score } = request.body;
        // The plugin leaves out a falsy value, so a position asked for 0 arrives with neither field.
        const target = score_id !== undefined ? { score_id } : { score: score_value ?? score ?? 0 };
        const { position } = await leaderboards.position(gameOf(request), ldboard_name, {
          ...target,
          period_offset: 0,
        });
        return { success: true, position: swPosition(position) };
      },
    );

    sw.get(
      '/get_scores_around/:gameId',
      {
        schema: {
          ...schema,
          params: gameParam,
          querystring: z.object({
            scores_to_fetch: orAbsent(z.coerce.number(countMessage).int(countMessage).min(0, countMessage)).transform(
              (v) => Math.min(v ?? 3, MAX_AROUND),
            ),
            ldboard_name: boardField,
            score_id: scoreId,
            score_value: orAbsent(queryScore),
          }),
        },
      },
      async (request) => {
        const { scores_to_fetch, ldboard_name, score_id, score_value } = request.query;
        const ld = await board(request, ldboard_name);
        const target = score_id !== undefined ? { score_id } : { score: score_value ?? 0 };
        const around = await leaderboards.around(gameOf(request), ldboard_name, {
          ...target,
          count: scores_to_fetch,
          period_offset: 0,
        });
        return {
          success: true,
          scores_above: around.scores_above.map(swScore),
          scores_below: around.scores_below.map(swScore),
          score_position: swPosition(around.position),
          ...ld,
        };
      },
    );

    sw.get(
      '/delete_score',
      { schema: { ...schema, querystring: z.object({ score_id: z.string().max(64) }) } },
      async (request) => {
        requireClientDeletes(request.game!);
        // 0.6.x names no board: a score id is unique across the game's boards, as DELETE /v1/scores/:id finds it.
        await leaderboards.deleteScore(gameOf(request), request.query.score_id);
        return { success: true };
      },
    );

    sw.post(
      '/wipe_leaderboard',
      { schema: { ...schema, body: z.object({ ldboard_name: boardField }) } },
      async (request) => {
        requireClientDeletes(request.game!);
        await leaderboards.wipe(gameOf(request), request.body.ldboard_name);
        return { success: true };
      },
    );
  };
