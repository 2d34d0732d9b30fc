/**
 * `tsx scripts/build-server.ts`
 *
 * Compiles the server into ES modules, `packages/server/dist/main.js` (one process) and
 * `cluster.js` (several, `npm run start:cluster`), which run with plain `node`: no TypeScript
 * compiler at run time. `@howl/contract` is TypeScript source, so it is bundled in; every other
 * package stays an import, loaded from node_modules as before. The files sit as deep as
 * `src/main.ts`, so paths resolved from import.meta.url (the built site) stay the same.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const path = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));

await build({
  entryPoints: [path('packages/server/src/main.ts'), path('packages/server/src/cluster.ts')],
  outdir: path('packages/server/dist'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  alias: { '@howl/contract': path('packages/contract/src/index.ts') },
  logLevel: 'warning',
});
