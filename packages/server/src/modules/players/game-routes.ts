import {
  confirmPasswordResetBody,
  confirmPlayerBody,
  errorResponse,
  loginPlayerBody,
  logoutPlayerBody,
  okResponse,
  playerNameBody,
  playerProfile,
  playerSession,
  registerPlayerBody,
  registerPlayerResponse,
  resumeSessionBody,
} from '@howl/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noStore } from '../../http/security.js';
import { GAME_API_SECURITY } from '../games/game-api.js';
import { identityErrors } from '../identity/errors.js';
import type { Identity, SessionUser } from '../identity/service.js';
import { playerErrors } from './errors.js';
import { bearerToken, type Players } from './service.js';

const tags = ['players (game API)'];
const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  429: errorResponse,
};
const bearer = [{ apiKey: [], gameId: [], playerSession: [] }];

/** `/v1/players/…`: what a game calls to register, confirm, log in and out, and reset passwords. */
export const playerGameRoutes = (players: Players, identity: Identity): FastifyPluginAsyncZod =>
  async function playerGameApi(v1) {
    const game = (request: FastifyRequest) => request.game!;
    // Calls that send mail count against the caller's network, like the site's own sign-up.
    const perIp = async (request: FastifyRequest) => identity.countIpRequest(request.ip);
    const schema = { tags, security: GAME_API_SECURITY };
    // Before anything else (body checks, sign-in): while the developer has not turned player accounts on, every call says so.
    v1.addHook('preValidation', async (request) => players.requireAuthOn(game(request)));

    /** The player behind the call's Bearer token; a missing one and a dead one fail differently. */
    async function signedIn(request: FastifyRequest): Promise<SessionUser> {
      // No token, or not a Bearer one (`Basic …`): nothing to call expired.
      if (!bearerToken(request.headers.authorization)) throw playerErrors.signInRequired();
      const session = await players.authenticate(game(request), request.headers.authorization);
      if (!session) throw identityErrors.sessionExpired();
      return session;
    }

    v1.post(
      '/v1/players',
      {
        onRequest: perIp,
        schema: {
          ...schema,
          summary: 'Register a player; with email confirmation on, a code is emailed',
          body: registerPlayerBody,
          response: { 200: registerPlayerResponse, ...errors },
        },
      },
      async (request) => players.register(game(request), request.body),
    );

    v1.post(
      '/v1/players/confirm',
      {
        schema: {
          ...schema,
          summary: "Confirm a player's email with the emailed code",
          body: confirmPlayerBody,
          response: { 200: z.object({ player: playerProfile }), ...errors },
        },
      },
      async (request) => players.confirm(game(request), request.body.player_name, request.body.code),
    );

    v1.post(
      '/v1/players/resend-code',
      {
        onRequest: perIp,
        schema: {
          ...schema,
          summary: 'Email a fresh confirmation code',
          body: playerNameBody,
          response: { 200: okResponse, ...errors },
        },
      },
      async (request) => {
        await players.resendCode(game(request), request.body.player_name);
        return { ok: true as const };
      },
    );

    v1.post(
      '/v1/players/login',
      {
        schema: {
          ...schema,
          summary: 'Log a player in; remember_me also answers a saved session',
          body: loginPlayerBody,
          response: { 200: playerSession, ...errors },
        },
      },
      async (request, reply) => {
        noStore(reply);
        return players.login(game(request), request.body, request.ip);
      },
    );

    v1.post(
      '/v1/players/sessions/resume',
      {
        schema: {
          ...schema,
          summary: 'Trade a saved session for a fresh access token',
          body: resumeSessionBody,
          response: { 200: playerSession, ...errors },
        },
      },
      async (request, reply) => {
        noStore(reply);
        return players.resume(game(request), request.body.saved_session);
      },
    );

    v1.post(
      '/v1/players/logout',
      {
        schema: {
          ...schema,
          security: bearer,
          summary: 'End this session and the saved session it came from; all: true ends every session',
          body: logoutPlayerBody,
          response: { 200: okResponse, ...errors },
        },
      },
      async (request) => {
        await players.logout(game(request), await signedIn(request), request.body.all);
        return { ok: true as const };
      },
    );

    v1.post(
      '/v1/players/password-reset',
      {
        onRequest: perIp,
        schema: {
          ...schema,
          summary: 'Email a reset code; the current password stops working until a new one is set',
          body: playerNameBody,
          response: { 200: okResponse, ...errors },
        },
      },
      async (request) => {
        await players.requestPasswordReset(game(request), request.body.player_name);
        return { ok: true as const };
      },
    );

    v1.post(
      '/v1/players/password-reset/confirm',
      {
        schema: {
          ...schema,
          summary: 'Set a new password with the emailed code; every session of the player ends',
          body: confirmPasswordResetBody,
          response: { 200: okResponse, ...errors },
        },
      },
      async (request) => {
        await players.confirmPasswordReset(game(request), request.body);
        return { ok: true as const };
      },
    );

    v1.get(
      '/v1/players/me',
      {
        schema: {
          ...schema,
          security: bearer,
          summary: 'The logged-in player',
          response: { 200: playerProfile, ...errors },
        },
      },
      async (request) => players.me(game(request), await signedIn(request)),
    );
  };
