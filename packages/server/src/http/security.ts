import helmet from 'helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Calls answered only with JSON (the game API), and what else they carry (its CORS headers). */
export interface JsonApi {
  matches: (request: FastifyRequest) => boolean;
  headers: Record<string, string>;
}

/** A year: browsers keep to https that long after one visit. */
const HSTS_SECONDS = 31_536_000;

/**
 * Browser protections on every answer: a CSP that allows only this origin's scripts, no framing,
 * nosniff, a same-origin referrer policy, and HSTS once the site is served over https. Answers of
 * `api` carry only what protects a JSON answer (a CSP that allows nothing, no framing, nosniff,
 * HSTS over https): the page-level headers protect documents, and cost a game call a tenth of its CPU.
 */
export function registerSecurityHeaders(app: FastifyInstance, publicUrl: string, api?: JsonApi): void {
  const https = publicUrl.startsWith('https://');
  // helmet itself, made once: the Fastify wrapper builds it again on every request, a cost each game call paid.
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        imgSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        // Highlighted code is coloured with style attributes, and dialogs add a style element.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Over plain http (a first local run) upgrading would break every asset.
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // Without includeSubDomains: other hosts of the operator's domain may still be plain http.
    strictTransportSecurity: https ? { maxAge: HSTS_SECONDS, includeSubDomains: false } : false,
  });
  const apiHeaders = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    ...(https ? { 'strict-transport-security': `max-age=${HSTS_SECONDS}` } : {}),
    ...api?.headers,
  };
  app.addHook('onRequest', (request, reply, done) => {
    // Set on the reply, not the socket: Node then writes them in one pass instead of validating each twice.
    if (api?.matches(request)) {
      reply.headers(apiHeaders);
      return done();
    }
    setHeaders(request.raw, reply.raw, (err) => done(err as Error | undefined));
  });
}

/** Answers that carry a secret (an API key, a session or access token) must not be kept by browsers or proxies. */
export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store');
}
