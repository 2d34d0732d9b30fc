import { Readable } from 'node:stream';
import { errorResponse, gameId } from '@howl/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noStore } from '../../http/security.js';
import type { PlayerData } from './service.js';

/** `/api/games/:gameId/player-data/export`: every document of a game, streamed; owner only (`requireOwnerOnGameRoutes`). */
export const playerDataRoutes: FastifyPluginAsyncZod<{ playerData: PlayerData }> = async (app, { playerData }) => {
  app.get(
    '/api/games/:gameId/player-data/export',
    {
      schema: {
        tags: ['player data (console)'],
        summary: "Download every player's and character's data as one JSON document (playerdata.json)",
        params: z.object({ gameId }),
        response: {
          200: z.unknown().meta({
            description: '{game_id, exported_at, players: [{player_name, player_data, characters}], game_state}',
          }),
          401: errorResponse,
          404: errorResponse,
        },
      },
    },
    async (request, reply) => {
      return noStore(reply)
        .type('application/json; charset=utf-8')
        .header('content-disposition', 'attachment; filename="playerdata.json"')
        .send(
          // Byte mode with a small buffer: one page is read ahead, not sixteen (object mode's default).
          Readable.from(playerData.export(request.params.gameId), { objectMode: false, highWaterMark: 64 * 1024 }),
        );
    },
  );
};
