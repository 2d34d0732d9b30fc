import {
  errorResponse,
  gameId,
  okResponse,
  playerAuthSettings,
  playerEmailSettings,
  playerName,
  PLAYERS_PAGE,
  playersPage,
  queryWholeNumber,
  setPlayerPasswordBody,
  updatePlayerAuthBody,
  updatePlayerEmailBody,
} from '@howl/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GameRow } from '../games/games.table.js';
import type { Players } from './service.js';

const tags = ['players (console)'];
const errors = { 400: errorResponse, 401: errorResponse, 404: errorResponse };
const params = z.object({ gameId });
const playerParams = z.object({ gameId, playerName });

/**
 * `/api/games/:gameId/player-auth…` and `…/players…`: a game's player settings and its players; owner
 * only (`requireOwnerOnGameRoutes` sets `request.game` to the owned game).
 */
export const playerRoutes: FastifyPluginAsyncZod<{ players: Players }> = async (app, { players }) => {
  const game = (request: { game?: GameRow }) => request.game!;

  app.get(
    '/api/games/:gameId/player-auth',
    {
      schema: {
        tags,
        summary: "The game's player authentication settings",
        params,
        response: { 200: playerAuthSettings, ...errors },
      },
    },
    async (request) => players.getSettings(game(request)),
  );

  app.put(
    '/api/games/:gameId/player-auth',
    {
      schema: {
        tags,
        summary: 'Change player authentication settings; fields left out keep their values',
        params,
        body: updatePlayerAuthBody,
        response: { 200: playerAuthSettings, ...errors },
      },
    },
    async (request) => players.updateSettings(game(request), request.body),
  );

  app.get(
    '/api/games/:gameId/player-auth/emails',
    {
      schema: {
        tags,
        summary: "The players' confirmation and reset mails, as they go out",
        params,
        response: { 200: playerEmailSettings, ...errors },
      },
    },
    async (request) => players.getEmails(game(request)),
  );

  app.put(
    '/api/games/:gameId/player-auth/emails',
    {
      schema: {
        tags,
        summary: 'Customise the mails; null or empty brings a field back to its default',
        params,
        body: updatePlayerEmailBody,
        response: { 200: playerEmailSettings, ...errors },
      },
    },
    async (request) => players.updateEmails(game(request), request.body),
  );

  app.get(
    '/api/games/:gameId/players',
    {
      schema: {
        tags,
        summary: "The game's players in name order, 50 a page (or limit)",
        params,
        querystring: z.object({
          cursor: z.string().max(600).optional(),
          limit: queryWholeNumber('limit', 1, PLAYERS_PAGE, PLAYERS_PAGE),
        }),
        response: { 200: playersPage, ...errors },
      },
    },
    async (request) => players.list(game(request), request.query.cursor, request.query.limit),
  );

  for (const [action, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    app.post(
      `/api/games/:gameId/players/:playerName/${action}`,
      {
        schema: {
          tags,
          summary: enabled
            ? 'Let a disabled player log in again'
            : 'Disable a player: every session ends at once and login is refused',
          params: playerParams,
          response: { 200: z.object({ player_name: z.string(), enabled: z.boolean() }), ...errors },
        },
      },
      async (request) => players.setEnabled(game(request), request.params.playerName, enabled),
    );
  }

  app.put(
    '/api/games/:gameId/players/:playerName/password',
    {
      schema: {
        tags,
        summary: "Set a player's password; every session of the player ends",
        params: playerParams,
        body: setPlayerPasswordBody,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await players.setPassword(game(request), request.params.playerName, request.body.password);
      return { ok: true as const };
    },
  );

  app.delete(
    '/api/games/:gameId/players/:playerName',
    {
      schema: {
        tags,
        summary: 'Delete a player account, its sessions and its data; its scores stay',
        params: playerParams,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await players.remove(game(request), request.params.playerName);
      return { ok: true as const };
    },
  );
};
