import { playerName, putPlayerDataBody } from '@howl/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WriterCheck } from '../leaderboards/game-routes.js';
import type { PlayerData, StoredDoc } from '../player-data/service.js';
import { notePlayerDataDigest } from './digest.js';
import { playerAuthorization } from './player-session.js';

/**
 * The plugin reads a player's data with the name as it is in the path (`/get_player_data/G/<name>`),
 * so a name holding one of these comes back as another player's: `#` and `?` end the path, `/`
 * splits it, `%` starts an escape. Saving under such a name is refused, so that no game reads
 * another player's data and saves it over this one's.
 */
const UNREADABLE_IN_PATH = /[#?/%]/;
// Checked as sent: a full-width `＃` reads back, normalised on the way in as it was when saved.
const writableName = z
  .string()
  .refine((name) => !UNREADABLE_IN_PATH.test(name), {
    message:
      'The SilentWolf plugin cannot read back data saved under a player name holding #, ?, / or %, so none is saved. Use another name, or the Howl plugin.',
  })
  .pipe(playerName);

const pushBody = z.object({
  player_name: writableName,
  player_data: putPlayerDataBody.shape.player_data,
  overwrite: putPlayerDataBody.shape.overwrite,
});

/** The keys to remove: those of an object; `{}`, `""` (0.6.20's "everything") or none at all: every key. */
const keysToRemove = z.preprocess(
  (v) => (v === null || v === '' ? undefined : v),
  z
    .record(z.string(), z.unknown(), { message: 'player_data must be a JSON object of the keys to remove.' })
    .optional()
    .transform((doc) => (doc && Object.keys(doc).length > 0 ? Object.keys(doc) : undefined)),
);
// A removal names the player in its body, so it reaches the right data whatever the name holds.
const removeBody = z.object({ player_name: playerName, player_data: keysToRemove });

/** `{success, player_name, player_data}` with the stored JSON text as it is: no parse and re-serialise per read. */
function sendDoc(reply: FastifyReply, player: string, doc: StoredDoc) {
  return reply
    .type('application/json; charset=utf-8')
    .serializer((payload: unknown) => payload as string)
    .send(`{"success":true,"player_name":${JSON.stringify(player)},"player_data":${doc.data}}`);
}

/** The SilentWolf plugin's player data calls (`Players.gd`), on the service `/v1/player-data` uses. */
export const silentWolfPlayerDataRoutes = (playerData: PlayerData, requireWriter: WriterCheck): FastifyPluginAsyncZod =>
  async function silentWolfPlayerData(sw) {
    const keyOf = (request: FastifyRequest, player: string) => ({ gameId: request.game!.id, player, character: '' });
    // Writes under a registered player's name meet the same check as on `/v1`.
    const writer = (request: FastifyRequest, player: string) =>
      requireWriter(request.game!, player, playerAuthorization(request));

    sw.get(
      '/get_player_data/:gameId/:playerName',
      { schema: { params: z.object({ gameId: z.string(), playerName }) } },
      async (request, reply) => {
        const player = request.params.playerName;
        return sendDoc(reply, player, await playerData.get(keyOf(request, player)));
      },
    );

    sw.post('/push_player_data', { schema: { body: pushBody } }, async (request) => {
      const { player_name, player_data, overwrite } = request.body;
      await writer(request, player_name);
      notePlayerDataDigest(request, player_name);
      await playerData.put(keyOf(request, player_name), { player_data, overwrite });
      return { success: true as const, player_name };
    });

    sw.post('/remove_player_data', { schema: { body: removeBody } }, async (request, reply) => {
      const { player_name, player_data: keys } = request.body;
      await writer(request, player_name);
      return sendDoc(reply, player_name, await playerData.remove(keyOf(request, player_name), { keys }));
    });
  };
