/**
 * Boundaries checked by `npm run lint` (`npm run deps`): no import cycle in the server or the site,
 * and no feature module reaching into another feature's store (use its service or a small exported
 * interface instead). See docs/architecture.md.
 */

const MODULES = '^packages/server/src/modules/';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: modules that need each other share a small file or an interface instead.',
      from: { path: '^packages/(server|web)/src/' },
      to: { circular: true },
    },
    {
      name: 'no-foreign-store',
      severity: 'error',
      comment: 'A feature module uses another module through its service, never its store.',
      from: { path: `${MODULES}([^/]+)/` },
      to: { path: `${MODULES}[^/]+/store\\.ts$`, pathNot: `${MODULES}$1/` },
    },
    {
      name: 'ranking-below-leaderboards',
      severity: 'error',
      comment:
        'The rank index and the order are below the boards: leaderboards uses ranking, never the other way round.',
      from: { path: `${MODULES}ranking/` },
      to: { path: `${MODULES}leaderboards/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a cycle through types is still two modules that need each other.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
