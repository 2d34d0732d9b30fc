import { errorResponse, gameId, IMPORT_MAX_BODY_BYTES, importBody, importResponse } from '@howl/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Importer } from './service.js';

const errors = {
  400: errorResponse,
  401: errorResponse,
  404: errorResponse,
  409: errorResponse,
  413: errorResponse,
  429: errorResponse,
};

/** `POST /api/games/:gameId/import`: a game's data from another service; owner only (`requireOwnerOnGameRoutes`). */
export const importRoutes: FastifyPluginAsyncZod<{ importer: Importer }> = async (app, { importer }) => {
  app.post(
    '/api/games/:gameId/import',
    {
      // A whole game's scores and players in one file: larger than any other request may be.
      bodyLimit: IMPORT_MAX_BODY_BYTES,
      schema: {
        tags: ['import (console)'],
        summary:
          "Import a game's scores, players and player data (SilentWolf's JSON shapes); every row is checked first",
        params: z.object({ gameId }),
        body: importBody,
        response: { 200: importResponse, ...errors },
      },
    },
    async (request) => importer.run(request.game!, request.body),
  );
};
