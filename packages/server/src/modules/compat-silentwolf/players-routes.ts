import { confirmationCode, password, playerName, registerPlayerBody } from '@howl/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/errors.js';
import { noStore } from '../../http/security.js';
import { identityErrors } from '../identity/errors.js';
import type { Identity } from '../identity/service.js';
import { playerErrors } from '../players/errors.js';
import type { Players } from '../players/service.js';
import { orAbsent } from './answers.js';
import { playerAuthorization } from './player-session.js';

/** Howl's saved session is one token; the plugin keeps it as two strings and sends both back. */
const LOOKUP_LENGTH = 16;

const anonymousRefused = () =>
  new AppError(
    400,
    'InvalidParameter',
    'Anonymous players are not supported: register the player with a name and a password.',
    { field: 'anon' },
  );

/** `"true"`/`"True"`/`"false"`/`"False"` (Godot 4 and 3 send text) or a JSON boolean. */
const flag = z.preprocess(
  (v) => (typeof v === 'string' ? ({ true: true, false: false }[v.trim().toLowerCase()] ?? v) : v),
  z.boolean({ message: 'remember_me must be true or false.' }),
);
// 0 (a game configured with `saved_session_expiration_days = 0`) leaves the game's own number of days.
const days = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z
    .number({ message: 'remember_me_expires_in must be a whole number of days.' })
    .int({ message: 'remember_me_expires_in must be a whole number of days.' })
    .min(0, { message: 'remember_me_expires_in must be a whole number of days.' })
    .transform((n) => (n === 0 ? undefined : n)),
);

const createBody = registerPlayerBody.extend({ anon: z.literal(false).optional() });
const usernameBody = z.object({ username: playerName });
const loginBody = z.object({
  username: playerName,
  password,
  remember_me: orAbsent(flag),
  remember_me_expires_in: orAbsent(days),
});
const savedPart = z.string({ message: 'lookup and validator are required.' }).min(1).max(200);
const nameBody = z.object({ player_name: playerName });
const resetBody = z.object({
  player_name: playerName,
  conf_code: confirmationCode,
  password,
  confirm_password: z.string().max(256),
});

/** The SilentWolf plugin's account calls (`Auth.gd`), on the players service `/v1/players` uses. */
export const silentWolfPlayerRoutes = (players: Players, identity: Identity): FastifyPluginAsyncZod =>
  async function silentWolfPlayers(sw) {
    const game = (request: FastifyRequest) => request.game!;
    // Calls that send mail count against the caller's network, as on `/v1`.
    const perIp = async (request: FastifyRequest) => identity.countIpRequest(request.ip);
    // While the developer has not turned player accounts on, every call says so, before its body is checked.
    sw.addHook('preValidation', async (request) => players.requireAuthOn(game(request)));

    sw.post(
      '/create_new_player',
      {
        onRequest: perIp,
        // An anonymous player has no password, which Howl's accounts cannot hold.
        preValidation: async (request) => {
          if ((request.body as { anon?: unknown } | null)?.anon === true) throw anonymousRefused();
        },
        schema: { body: createBody },
      },
      async (request) => {
        // Email or not follows the game's registration type, as on `/v1`.
        const { player, confirmation_required } = await players.register(game(request), request.body);
        return {
          success: true as const,
          anon: false,
          email_conf_enabled: confirmation_required,
          player_name: player.player_name,
        };
      },
    );

    sw.post(
      '/confirm_verif_code',
      { schema: { body: usernameBody.extend({ code: confirmationCode }) } },
      async (request) => {
        await players.confirm(game(request), request.body.username, request.body.code);
        return { success: true as const };
      },
    );

    sw.post('/resend_conf_code', { onRequest: perIp, schema: { body: usernameBody } }, async (request) => {
      await players.resendCode(game(request), request.body.username);
      return { success: true as const };
    });

    sw.post('/login_player', { schema: { body: loginBody } }, async (request, reply) => {
      noStore(reply);
      const { username, password: given, remember_me = false, remember_me_expires_in } = request.body;
      const session = await players.login(
        game(request),
        { player_name: username, password: given, remember_me, saved_session_days: remember_me_expires_in },
        request.ip,
      );
      const saved = session.saved_session?.token;
      return {
        success: true as const,
        // The plugin keeps one as its access token and one as its id token; Howl has one session token.
        swtoken: session.access_token,
        swidtoken: session.access_token,
        ...(saved ? { lookup: saved.slice(0, LOOKUP_LENGTH), validator: saved.slice(LOOKUP_LENGTH) } : {}),
      };
    });

    sw.post(
      '/validate_remember_me',
      { schema: { body: z.object({ lookup: savedPart, validator: savedPart }) } },
      async (request) => {
        // The plugin saves its pair once and sends it on every start: the saved session is not replaced.
        const player = await players.checkSavedSession(game(request), request.body.lookup + request.body.validator);
        return { success: true as const, player_name: player.player_name };
      },
    );

    sw.post('/request_player_password_reset', { onRequest: perIp, schema: { body: nameBody } }, async (request) => {
      await players.requestPasswordReset(game(request), request.body.player_name);
      return { success: true as const };
    });

    sw.post('/reset_player_password', { schema: { body: resetBody } }, async (request) => {
      const { player_name, conf_code, password: next, confirm_password } = request.body;
      await players.confirmPasswordReset(game(request), {
        player_name,
        code: conf_code,
        password: next,
        confirm_password,
      });
      return { success: true as const };
    });

    sw.post('/get_player_details', { schema: { body: nameBody } }, async (request) => {
      // As `/v1/players/me`: only the player's own session reads the player's details.
      const authorization = playerAuthorization(request);
      if (!authorization) throw playerErrors.signInRequired();
      const session = await players.authenticate(game(request), authorization);
      if (!session) throw identityErrors.sessionExpired();
      if (session.username !== request.body.player_name) throw playerErrors.sessionRequired();
      return { success: true as const, player_details: await players.me(game(request), session) };
    });
  };
