import type { ErrorCode, ErrorResponse } from '@howl/contract';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

export const JSON_ONLY_MESSAGE = 'Send the request body as JSON with Content-Type: application/json.';

/** Whether a Content-Type header says JSON (`application/json`, with or without parameters). */
export const sendsJson = (type: string | undefined) => /^application\/json\s*(;|$)/i.test(type ?? '');

/** A failure a client can act on. Services throw these; `registerErrorHandler` renders them, and nothing else does. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly options: { field?: string; retryAfterSeconds?: number; currentVersion?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
  }
}

export function errorBody(code: ErrorCode, message: string, field?: string): ErrorResponse {
  return { error: field === undefined ? { code, message } : { code, message, field } };
}

/**
 * How an answer written before any route runs (a malformed URL, an unknown path, a restart) is
 * shaped for the path it was sent to: the SilentWolf paths answer as their plugin reads an error.
 * `path` is the request's path as sent, or undefined when it could not be read.
 */
export type ErrorShape = (path: string | undefined, body: ErrorResponse) => object;

export const envelope: ErrorShape = (_path, body) => body;

// Fastify's own request errors, mapped to the envelope; anything else unexpected is a 500.
const fastifyErrors: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PayloadTooLarge', message: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UnsupportedMediaType', message: JSON_ONLY_MESSAGE },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'InvalidParameter',
    message: 'The request body is empty; send a JSON object.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'InvalidParameter',
    message: 'The request body is not valid JSON.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'InvalidParameter',
    message: 'The Content-Length header does not match the body.',
  },
};

/** What an error answers: its status, its body in the envelope, and how long to wait when it is a spent limit. */
export interface ErrorAnswer {
  status: number;
  body: ErrorResponse;
  retryAfterSeconds?: number;
}

/** Turns any error a request raised into its answer; 5xx are logged here, with a body that says nothing internal. */
export function errorAnswer(err: FastifyError, request: FastifyRequest): ErrorAnswer {
  if (err instanceof AppError) {
    if (err.statusCode >= 500) request.log.error({ err, cause: err.cause }, err.message);
    const body = errorBody(err.code, err.message, err.options.field);
    if (err.options.currentVersion !== undefined) body.error.current_version = err.options.currentVersion;
    return {
      status: err.statusCode,
      body,
      ...(err.options.retryAfterSeconds !== undefined ? { retryAfterSeconds: err.options.retryAfterSeconds } : {}),
    };
  }
  const invalid = (message: string, field?: string) => ({
    status: 400,
    body: errorBody('InvalidParameter', message, field),
  });
  if (hasZodFastifySchemaValidationErrors(err)) {
    const first = err.validation[0];
    const path = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') ?? '';
    // A closed object's stray key is the field to name, not the object holding it.
    const stray = first?.keyword === 'unrecognized_keys' ? (first.params as { keys: string[] }).keys[0] : undefined;
    const field = (stray !== undefined ? [path, stray].filter(Boolean).join('.') : path) || undefined;
    // A missing body fails as a whole, in zod's words; say what to send instead.
    if (!field && err.validationContext === 'body') {
      // A body sent as another type (text/plain) was read as text: what to change is its type.
      if (request.body != null && !sendsJson(request.headers['content-type'])) {
        return { status: 415, body: errorBody('UnsupportedMediaType', JSON_ONLY_MESSAGE) };
      }
      if (request.body == null) return invalid('The request body is missing; send a JSON object.');
      // An object that fails as a whole (a rule across its fields) keeps the rule's own words.
      if (typeof request.body !== 'object' || Array.isArray(request.body)) {
        return invalid('Send the request body as a JSON object.');
      }
    }
    return invalid(first?.message ?? 'Invalid request.', field);
  }
  // PostgreSQL refuses text it cannot store (a NUL character, bad UTF-8): the client's input, not our fault.
  if (err.code === '22021' || err.code === '22P05')
    return invalid('The request contains characters that cannot be stored.');
  const known = err.code ? fastifyErrors[err.code] : undefined;
  if (known) return { status: known.status, body: errorBody(known.code, known.message) };
  if (err instanceof SyntaxError || (err.statusCode === 400 && /JSON/i.test(err.message))) {
    return invalid('The request body is not valid JSON.');
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return { status: err.statusCode, body: errorBody('InvalidParameter', 'The request could not be understood.') };
  }
  request.log.error({ err }, 'unhandled error');
  return { status: 500, body: errorBody('InternalError', 'Something went wrong on our side. Please try again.') };
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const answer = errorAnswer(err, request);
    if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', String(answer.retryAfterSeconds));
    return reply.status(answer.status).send(answer.body);
  });
}

/** Once close() begins, new requests (on connections still open) get a 503 so the load balancer sends them elsewhere. */
export function refuseWhileClosing(app: FastifyInstance, shape: ErrorShape = envelope): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback-style, as the other hooks every request meets: an async hook costs a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    void reply
      .status(503)
      .header('connection', 'close')
      .send(
        shape(request.url, errorBody('ServiceUnavailable', 'The server is restarting. Please try again in a moment.')),
      );
  });
}
