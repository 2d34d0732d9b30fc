import {
  changePasswordBody,
  confirmForgotPasswordBody,
  confirmSignUpBody,
  developerSession,
  emailOnlyBody,
  errorResponse,
  okResponse,
  signInBody,
  signUpBody,
  signUpResponse,
} from '@howl/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  clearSessionCookie,
  findDeveloper,
  requireDeveloper,
  setSessionCookie,
  type CookieSettings,
} from '../../http/developer-session.js';
import type { Identity } from '../identity/service.js';
import type { Developers } from './service.js';

export interface DeveloperRoutesOptions {
  developers: Developers;
  identity: Identity;
  cookie: CookieSettings;
}

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  429: errorResponse,
};
const tags = ['developer accounts'];

/** `/api/auth/*`: developer sign-up, codes, sign-in, passwords and the session. */
export const developerRoutes: FastifyPluginAsyncZod<DeveloperRoutesOptions> = async (
  app,
  { developers, identity, cookie },
) => {
  const signedIn = requireDeveloper(developers);
  // Every auth attempt counts against its caller's IP, whichever account it names.
  const perIp = async (request: { ip: string }) => identity.countIpRequest(request.ip);

  app.post(
    '/api/auth/sign-up',
    {
      onRequest: perIp,
      schema: {
        tags,
        summary: 'Create a developer account and email its confirmation code',
        body: signUpBody,
        response: { 200: signUpResponse, ...errors },
      },
    },
    async (request) => developers.signUp(request.body),
  );

  app.post(
    '/api/auth/confirm-sign-up',
    {
      onRequest: perIp,
      schema: {
        tags,
        summary: 'Confirm an account with its emailed code; signs the developer in',
        body: confirmSignUpBody,
        response: { 200: developerSession, ...errors },
      },
    },
    async (request, reply) => {
      const { token, session } = await developers.confirmSignUp(request.body.email, request.body.code);
      setSessionCookie(reply, token, cookie);
      return session;
    },
  );

  app.post(
    '/api/auth/resend-code',
    {
      onRequest: perIp,
      schema: {
        tags,
        summary: 'Email a fresh confirmation code',
        body: emailOnlyBody,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await developers.pool.resendCode(request.body.email);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/auth/sign-in',
    {
      onRequest: perIp,
      schema: {
        tags,
        summary: 'Sign in; sets the session cookie',
        body: signInBody,
        response: { 200: developerSession, ...errors },
      },
    },
    async (request, reply) => {
      const { token, session } = await developers.signIn(request.body.email, request.body.password);
      setSessionCookie(reply, token, cookie);
      return session;
    },
  );

  app.post(
    '/api/auth/forgot-password',
    {
      onRequest: perIp,
      schema: {
        tags,
        summary: 'Email a password reset code (valid 15 minutes)',
        body: emailOnlyBody,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await developers.pool.requestReset(request.body.email);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/auth/confirm-forgot-password',
    {
      onRequest: perIp,
      schema: {
        tags,
        summary: 'Set a new password with the emailed code; ends every session',
        body: confirmForgotPasswordBody,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      const { email, code, newPassword } = request.body;
      await developers.pool.confirmReset(email, code, newPassword);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/auth/change-password',
    {
      onRequest: perIp,
      preValidation: signedIn,
      schema: {
        tags,
        summary: "Change the signed-in developer's password; other sessions end",
        body: changePasswordBody,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await developers.pool.changePassword(request.developer!, request.body.oldPassword, request.body.newPassword);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/auth/session',
    {
      preValidation: signedIn,
      schema: { tags, summary: 'The signed-in developer', response: { 200: developerSession, 401: errorResponse } },
    },
    async (request) => developers.sessionOf(request.developer!.userId),
  );

  app.get(
    '/api/auth/whoami',
    {
      schema: {
        tags,
        summary: 'The signed-in developer, or null: lets the site check for a session without a failing request',
        response: { 200: z.object({ session: developerSession.nullable() }) },
      },
    },
    async (request) => {
      const found = await findDeveloper(developers, request);
      return { session: found ? await developers.sessionOf(found.userId) : null };
    },
  );

  app.post(
    '/api/auth/sign-out',
    {
      schema: {
        tags,
        summary: 'Sign out everywhere: ends every session of the developer and clears the cookie',
        response: { 200: okResponse, 401: errorResponse },
      },
    },
    async (request, reply) => {
      // The cookie is HttpOnly, so only the server can remove it: it goes even when the session is already gone.
      clearSessionCookie(reply, cookie);
      await signedIn(request);
      await developers.signOut(request.developer!);
      return { ok: true as const };
    },
  );
};
