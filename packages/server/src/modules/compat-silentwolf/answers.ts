import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ErrorResponse } from '@howl/contract';
import { errorAnswer } from '../../http/errors.js';

/**
 * How the SilentWolf plugin reads an answer: always a JSON object with `success`, and on failure a
 * string `error` that its scenes put in a Label. A bad key also carries `message: "Forbidden"`,
 * the one answer to it that 0.6.x recognises (it logs it and stops) and 0.9.x reads as a failure.
 */
export function swErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const answer = errorAnswer(err, request);
  if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', String(answer.retryAfterSeconds));
  const { code, message } = answer.body.error;
  const body =
    code === 'InvalidApiKey'
      ? { message: 'Forbidden', success: false, error: `Forbidden: ${message}`, code }
      : silentWolfError(answer.body);
  return reply.status(answer.status).send(body);
}

/** An error in the shape the plugin reads: `success: false` and the message as `error` (else its signal never comes). */
export function silentWolfError({ error }: ErrorResponse) {
  return { success: false, error: error.message, code: error.code };
}

/** The tokens Godot renders for a missing value (`Null` on Godot 3 and 0.9.6+, `<null>` on 0.9.0–0.9.2), and empty text. */
const ABSENT = new Set(['', 'Null', 'null', '<null>']);

/** A query or body value the plugin may send as a token for "nothing": read as absent. */
export const orAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (v) => (v === null || (typeof v === 'string' && ABSENT.has(v.trim())) ? undefined : v),
    schema.optional(),
  );
