import {
  createLeaderboardBody,
  deleteScoresBody,
  errorResponse,
  gameId,
  leaderboard,
  leaderboardName,
  leaderboardsResponse,
  okResponse,
  periodOffset,
  scoresPage,
  updateLeaderboardBody,
} from '@howl/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DASHBOARD_PAGE, type Leaderboards } from './service.js';

const tags = ['leaderboards (console)'];
const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 409: errorResponse };
const gameParams = z.object({ gameId });
const boardParams = z.object({ gameId, name: leaderboardName });

/** `/api/games/:gameId/leaderboards…`: configuration and the dashboard's score views; owner only (`requireOwnerOnGameRoutes`). */
export const leaderboardRoutes: FastifyPluginAsyncZod<{ leaderboards: Leaderboards }> = async (
  app,
  { leaderboards },
) => {
  app.get(
    '/api/games/:gameId/leaderboards',
    {
      schema: {
        tags,
        summary: "The game's leaderboards, with engines and entry counts",
        params: gameParams,
        response: { 200: leaderboardsResponse, ...errors },
      },
    },
    async (request) => ({ leaderboards: await leaderboards.list(request.params.gameId) }),
  );

  app.post(
    '/api/games/:gameId/leaderboards',
    {
      schema: {
        tags,
        summary: 'Create a leaderboard',
        params: gameParams,
        body: createLeaderboardBody,
        response: { 201: leaderboard, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await leaderboards.create(request.params.gameId, request.body)),
  );

  app.put(
    '/api/games/:gameId/leaderboards/:name',
    {
      schema: {
        tags,
        summary: "Change a leaderboard's settings (not its name); a lower max_entries trims at once",
        params: boardParams,
        body: updateLeaderboardBody,
        response: { 200: leaderboard, ...errors },
      },
    },
    async (request) => leaderboards.update(request.params.gameId, request.params.name, request.body),
  );

  app.delete(
    '/api/games/:gameId/leaderboards/:name',
    {
      schema: {
        tags,
        summary: 'Delete a leaderboard and its scores',
        params: boardParams,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await leaderboards.remove(request.params.gameId, request.params.name);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/games/:gameId/leaderboards/:name/scores',
    {
      schema: {
        tags,
        summary: `A page of ${DASHBOARD_PAGE} scores, best first`,
        params: boardParams,
        querystring: z.object({ cursor: z.string().max(2000).optional(), period_offset: periodOffset }),
        response: { 200: scoresPage, ...errors },
      },
    },
    async (request) =>
      leaderboards.scores(request.params.gameId, request.params.name, {
        max: DASHBOARD_PAGE,
        period_offset: request.query.period_offset,
        cursor: request.query.cursor,
      }),
  );

  app.delete(
    '/api/games/:gameId/leaderboards/:name/scores',
    {
      schema: {
        tags,
        summary: 'Wipe a leaderboard (every period)',
        params: boardParams,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await leaderboards.wipe(request.params.gameId, request.params.name);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/games/:gameId/scores/delete',
    {
      schema: {
        tags,
        summary: 'Delete one or several scores of this game',
        params: gameParams,
        body: deleteScoresBody,
        response: { 200: z.object({ deleted: z.number() }), ...errors },
      },
    },
    async (request) => ({ deleted: await leaderboards.deleteScores(request.params.gameId, request.body.score_ids) }),
  );
};
