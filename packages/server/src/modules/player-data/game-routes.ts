import {
  characterListResponse,
  characterName,
  deletePlayerDataBody,
  errorResponse,
  playerDataResponse,
  playerName,
  putPlayerDataBody,
} from '@howl/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GAME_API_SECURITY } from '../games/game-api.js';
import type { WriterCheck } from '../leaderboards/game-routes.js';
import type { PlayerData, StoredDoc } from './service.js';

const tags = ['player data (game API)'];
const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  409: errorResponse,
  413: errorResponse,
  429: errorResponse,
};
const playerParams = z.object({ player: playerName });
const characterParams = z.object({ player: playerName, character: characterName });

// The answer's text after the player's name, by document: a document kept in memory is one object
// for as long as it is kept, so its reads write this text once (the date, the number and the concatenation).
const docTails = new WeakMap<StoredDoc, string>();

/** Sends the stored JSON text inside the answer as it is: no parse and re-serialise per read. */
function sendDoc(reply: FastifyReply, player: string, character: string, doc: StoredDoc) {
  let tail = docTails.get(doc);
  if (tail === undefined) {
    const updatedAt = doc.updatedAt === null ? 'null' : JSON.stringify(new Date(doc.updatedAt).toISOString());
    tail = `,"player_data":${doc.data},"version":${doc.version},"updated_at":${updatedAt}}`;
    docTails.set(doc, tail);
  }
  const who = `"player_name":${JSON.stringify(player)}${character ? `,"character":${JSON.stringify(character)}` : ''}`;
  return reply
    .type('application/json; charset=utf-8')
    .serializer((payload: unknown) => payload as string)
    .send(`{${who}${tail}`);
}

/** `/v1/player-data/…`: a game's per-player and per-character documents, and its game state. */
export const playerDataGameRoutes = (playerData: PlayerData, requireWriter: WriterCheck): FastifyPluginAsyncZod =>
  async function playerDataGameApi(v1) {
    const gameId = (request: FastifyRequest) => request.game!.id;
    const writer = (request: FastifyRequest, player: string) =>
      requireWriter(request.game!, player, request.headers.authorization);
    const schema = { tags, security: GAME_API_SECURITY };

    for (const withCharacter of [false, true]) {
      const path = withCharacter ? '/v1/player-data/:player/characters/:character' : '/v1/player-data/:player';
      const params = withCharacter ? characterParams : playerParams;
      const keyOf = (request: FastifyRequest) => {
        const p = request.params as { player: string; character?: string };
        return { gameId: gameId(request), player: p.player, character: p.character ?? '' };
      };
      const what = withCharacter ? "a player's character" : 'a player';

      v1.get(
        path,
        {
          schema: {
            ...schema,
            summary: `The data of ${what}; none yet answers {} and version 0`,
            params,
            response: { 200: playerDataResponse, ...errors },
          },
        },
        async (request, reply) => {
          const key = keyOf(request);
          return sendDoc(reply, key.player, key.character, await playerData.get(key));
        },
      );

      v1.put(
        path,
        {
          schema: {
            ...schema,
            summary: `Replace or merge the data of ${what}`,
            params,
            body: putPlayerDataBody,
            response: { 200: playerDataResponse, ...errors },
          },
        },
        async (request, reply) => {
          const key = keyOf(request);
          await writer(request, key.player);
          return sendDoc(reply, key.player, key.character, await playerData.put(key, request.body));
        },
      );

      v1.delete(
        path,
        {
          schema: {
            ...schema,
            summary: `Delete top-level keys of the data of ${what}, or all of it; answers what remains`,
            params,
            body: deletePlayerDataBody,
            response: { 200: playerDataResponse, ...errors },
          },
        },
        async (request, reply) => {
          const key = keyOf(request);
          await writer(request, key.player);
          return sendDoc(reply, key.player, key.character, await playerData.remove(key, request.body));
        },
      );
    }

    v1.get(
      '/v1/player-data/:player/characters',
      {
        schema: {
          ...schema,
          summary: 'The names of the characters a player keeps data for',
          params: playerParams,
          response: { 200: characterListResponse, ...errors },
        },
      },
      async (request) => ({
        player_name: request.params.player,
        characters: await playerData.characters(gameId(request), request.params.player),
      }),
    );
  };
