import {
  apiKeyResponse,
  createGameBody,
  createGameResponse,
  errorResponse,
  gameDetails,
  gameId,
  gamesResponse,
  patchGameBody,
  setCurrentGameBody,
} from '@howl/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { preValidationAsyncHookHandler } from 'fastify';
import type { GameRow } from './games.table.js';
import type { Games } from './service.js';
import { noStore } from '../../http/security.js';

const tags = ['games'];
const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse, 409: errorResponse };
const params = z.object({ gameId });

/**
 * `/api/games`: a signed-in developer's games. The routes with a `:gameId` find the owned game in
 * `request.game` (`requireOwnerOnGameRoutes`); another developer's game answers 404, as if it did not exist.
 */
export const gameRoutes: FastifyPluginAsyncZod<{ games: Games; signedIn: preValidationAsyncHookHandler }> = async (
  app,
  { games, signedIn },
) => {
  // Before body validation: a signed-out caller learns nothing but 401.
  app.addHook('preValidation', signedIn);
  const me = (request: { developer?: { userId: string } }) => request.developer!.userId;
  const game = (request: { game?: GameRow }) => request.game!;

  app.post(
    '/api/games',
    {
      schema: {
        tags,
        summary: 'Create a game and its API key; it becomes the current game',
        body: createGameBody,
        response: { 201: createGameResponse, ...errors },
      },
    },
    async (request, reply) =>
      noStore(reply)
        .status(201)
        .send(await games.create(me(request), request.body.name)),
  );

  app.get(
    '/api/games',
    {
      schema: {
        tags,
        summary: "The developer's games and the current one",
        response: { 200: gamesResponse, 401: errorResponse },
      },
    },
    async (request) => games.list(me(request)),
  );

  app.put(
    '/api/games/current',
    {
      schema: {
        tags,
        summary: 'Make a game current',
        body: setCurrentGameBody,
        response: { 200: gamesResponse, ...errors },
      },
    },
    async (request) => games.setCurrent(me(request), request.body.game_id),
  );

  app.get(
    '/api/games/:gameId',
    { schema: { tags, summary: 'A game and its settings', params, response: { 200: gameDetails, ...errors } } },
    async (request) => games.get(game(request)),
  );

  app.patch(
    '/api/games/:gameId',
    {
      schema: {
        tags,
        summary: 'Rename a game or allow client deletes',
        params,
        body: patchGameBody,
        response: { 200: gameDetails, ...errors },
      },
    },
    async (request) => games.update(game(request), request.body),
  );

  app.delete(
    '/api/games/:gameId',
    {
      schema: {
        tags,
        summary: 'Delete a game and everything under it (no way back); answers the remaining games',
        params,
        response: { 200: gamesResponse, ...errors },
      },
    },
    async (request) => games.remove(me(request), request.params.gameId),
  );

  app.get(
    '/api/games/:gameId/api-key',
    { schema: { tags, summary: "The game's API key", params, response: { 200: apiKeyResponse, ...errors } } },
    async (request, reply) => {
      noStore(reply);
      return { api_key: await games.apiKey(game(request)) };
    },
  );

  app.post(
    '/api/games/:gameId/api-key/rotate',
    {
      schema: {
        tags,
        summary: 'Issue a new API key; the old one stops working at once',
        params,
        response: { 200: apiKeyResponse, ...errors },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return { api_key: await games.rotateApiKey(game(request)) };
    },
  );
};
