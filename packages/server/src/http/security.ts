import helmet from 'helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Browser protections on every answer: a CSP that allows only this origin's scripts, no framing,
 * nosniff, a same-origin referrer policy, and HSTS once the site is served over https.
 */
export function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): void {
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
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  });
  app.addHook('onRequest', (request, reply, done) =>
    setHeaders(request.raw, reply.raw, (err) => done(err as Error | undefined)),
  );
}

/** Answers that carry a secret (an API key, a session or access token) must not be kept by browsers or proxies. */
export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store');
}
