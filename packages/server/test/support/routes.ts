import type { FastifyInstance } from 'fastify';

/**
 * Every route the app serves as `METHOD /path/:param`, read from the tree Fastify prints (each line
 * one path segment, indented by depth), so route matrices follow the route table. HEAD (an alias of
 * GET) is left out.
 */
export function registeredRoutes(app: FastifyInstance): string[] {
  const segments: string[] = [];
  return app
    .printRoutes({ commonPrefix: false })
    .split('\n')
    .flatMap((line) => {
      const m = /^([│ ]*)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line);
      if (!m) return [];
      const depth = m[1]!.length / 4;
      segments.length = depth;
      segments.push(m[2]!);
      const path = segments.join('');
      return m[3]
        ? m[3]
            .split(', ')
            .filter((method) => method !== 'HEAD')
            .map((method) => `${method} ${path}`)
        : [];
    });
}
