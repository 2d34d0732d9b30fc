/**
 * `tsx scripts/build-server.ts`
 *
 * Compiles the server into one ES module, `packages/server/dist/main.js`, which `npm start` runs with
 * plain `node`: no TypeScript compiler at run time. `@howl/contract` is TypeScript source, so it is
 * bundled in; every other package stays an import, loaded from node_modules as before. The file sits
 * as deep as `src/main.ts`, so paths resolved from import.meta.url (the built site) stay the same.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const path = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));

await build({
  entryPoints: [path('packages/server/src/main.ts')],
  outfile: path('packages/server/dist/main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  alias: { '@howl/contract': path('packages/contract/src/index.ts') },
  logLevel: 'warning',
});
