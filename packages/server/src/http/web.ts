import { existsSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import { DOWNLOAD_PATH } from '@howl/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { envelope, errorBody, type ErrorShape } from './errors.js';

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Howl</title>
<p>The Howl API is running, but the web site has not been built. Run <code>npm run build</code> (or <code>npm start</code>, which builds it).</p>`;

const IMMUTABLE = 'public, max-age=31536000, immutable';
// A zip's name carries its version, but a rebuild of the same version must reach developers within minutes.
const DOWNLOAD_CACHE = 'public, max-age=300';
const DOWNLOAD_DIR = DOWNLOAD_PATH.slice(1);

function isHashedAsset(webRoot: string, path: string): boolean {
  return relative(webRoot, path).startsWith(`assets${sep}`);
}

/** A plugin zip the build packed into the site's download/ folder (scripts/pack-plugins.ts). */
function isPluginZip(webRoot: string, path: string): boolean {
  return relative(webRoot, path).startsWith(`${DOWNLOAD_DIR}${sep}`) && path.endsWith('.zip');
}

/**
 * Serves the built SPA and, under `/download/`, the plugin zips the build packed beside it. Unknown
 * `/api`, `/v1` and `/download/…` paths get a JSON 404; every other unknown path gets the SPA's
 * index.html, whose router shows the features home for paths it does not know. Only the files found
 * under the web root at start are routes (no wildcard), so no path reaches a file outside it.
 */
export async function registerWeb(
  app: FastifyInstance,
  webRoot: string,
  isGameCall: (request: FastifyRequest) => boolean = () => false,
  shape: ErrorShape = envelope,
): Promise<void> {
  const built = existsSync(join(webRoot, 'index.html'));
  // Said once at start: a mistyped WEB_ROOT otherwise shows only as the page below, to every visitor.
  if (!built) app.log.warn(`no built web site in ${webRoot} (WEB_ROOT, or run npm run build): pages say so`);
  if (built) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: ['index.html'],
      cacheControl: false,
      // Vite names every file under assets/ by its content hash: a new build makes new names.
      setHeaders: (res, path) => {
        if (isPluginZip(webRoot, path)) {
          res.setHeader('cache-control', DOWNLOAD_CACHE);
          res.setHeader('content-disposition', `attachment; filename="${basename(path)}"`);
        } else {
          res.setHeader('cache-control', isHashedAsset(webRoot, path) ? IMMUTABLE : 'no-cache');
        }
      },
    });
  }

  const notFound = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = /^\/(api|v1)(\/|$)/.test(path) || isGameCall(request);
    if (path.startsWith(`${DOWNLOAD_PATH}/`) && path.length > DOWNLOAD_PATH.length + 1) {
      return reply.status(404).send(shape(request.url, errorBody('NotFound', `No such download: ${path}`)));
    }
    if (isApi || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply
        .status(404)
        .send(shape(request.url, errorBody('NotFound', `No such endpoint: ${request.method} ${path}`)));
    }
    if (!built) return reply.status(200).type('text/html').send(NOT_BUILT);
    return reply.sendFile('index.html');
  };
  app.setNotFoundHandler(notFound);
  // An unknown endpoint is answered before its body is read: parsing up to the body limit of JSON
  // that no route takes costs the event loop a tenth of a second, and a bad body would answer 400.
  // A callback hook, as it runs on every request: an async one would add a promise to each.
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.is404 || request.method === 'GET' || request.method === 'HEAD') return done();
    void notFound(request, reply);
  });
}
