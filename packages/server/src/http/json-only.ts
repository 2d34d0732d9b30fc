import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkClientJson, plainlyClean } from './client-json.js';
import { AppError, errorBody, JSON_ONLY_MESSAGE, sendsJson } from './errors.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH']);

const prototypeKey = () =>
  new AppError(
    400,
    'InvalidParameter',
    'The request body cannot use __proto__ as a key, nor constructor holding a prototype key.',
  );

/**
 * Whether the parser refused well-formed JSON for a key reaching a prototype: asked only of a body
 * it refused, and parsed again only when its text names such a key.
 */
function refusedForPrototypeKey(text: string): boolean {
  if (!text.includes('__proto__') && !text.includes('constructor')) return false;
  try {
    JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Mutating console calls must say `Content-Type: application/json`: a cross-site HTML form cannot
 * send that, so a signed-in developer's cookie cannot be used by another site to post them.
 * An empty JSON body counts as `{}`, so calls without fields (sign-out) need no body. Every JSON
 * body, console or game API, then meets `checkClientJson`.
 */
export function requireJsonOnConsoleMutations(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    // The matched route, not the raw URL: `/%61pi/…` reaches the same route as `/api/…`.
    const route = request.routeOptions.url;
    if (!MUTATING.has(request.method) || !route?.startsWith('/api/')) return done();
    // Routes that a mail's button or a mail client's one-click unsubscribe posts to opt out.
    if ((request.routeOptions.config as { acceptsForms?: boolean } | undefined)?.acceptsForms) return done();
    if (sendsJson(request.headers['content-type'])) return done();
    void reply.status(415).send(errorBody('UnsupportedMediaType', JSON_ONLY_MESSAGE));
  });

  parseClientJson(app);
}

/**
 * Registers the JSON body parser every route meets: an empty body read as `{}`, the default parser
 * (the server's body limit, no prototype poisoning), then `checkClientJson`. `keepText` sees the text as sent.
 */
export function parseClientJson(
  app: FastifyInstance,
  keepText?: (request: FastifyRequest, text: string) => void,
): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    keepText?.(request, text);
    if (text.trim() === '') return done(null, {});
    parseJson(request, text, (err, value) => {
      // The parser refuses keys that reach an object's prototype, and then says only "not valid JSON".
      if (err) return done(refusedForPrototypeKey(text) ? prototypeKey() : err);
      try {
        if (!plainlyClean(text)) checkClientJson(value);
      } catch (refused) {
        return done(refused as Error);
      }
      done(null, value);
    });
  });
}
