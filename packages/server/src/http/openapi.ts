import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** The OpenAPI document at `/api/openapi.json` and a browsable reference at `/api/docs`, both from the route schemas. */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Howl API',
        version: '0.1.0',
        description:
          'Console API (`/api`, session cookie) for the Howl web site, and game API (`/v1`, `x-api-key` + `x-game-id`) for games. Errors are always `{ "error": { "code", "message", "field"? } }`.',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: "The game's API key." },
          gameId: { type: 'apiKey', in: 'header', name: 'x-game-id', description: 'The game id.' },
          playerSession: {
            type: 'http',
            scheme: 'bearer',
            description: "A player's access_token from /v1/players/login.",
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    // Schemas named with `.meta({ id })` go to components.schemas, where the routes' $refs point.
    transformObject: (input) => withoutSchemaIds(jsonSchemaTransformObject(input)),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/**
 * The named schemas come with `$schema` and a `$id` of their own `#/components/…` path. In OpenAPI 3.1
 * a `$id` moves the base that `$ref`s inside resolve against, so /api/docs could not resolve them.
 */
function withoutSchemaIds<T>(document: T): T {
  const schemas = (document as { components?: { schemas?: Record<string, Record<string, unknown>> } }).components
    ?.schemas;
  for (const schema of Object.values(schemas ?? {})) {
    delete schema.$id;
    delete schema.$schema;
  }
  return document;
}
