import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.{ts,tsx}',
      'packages/*/test/**/*.test.{ts,tsx}',
      'e2e/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    // Native modules (better-sqlite3, argon2) are happiest in child processes.
    pool: 'forks',
    // Memory tests (the player data export) force a full GC to measure what is retained, not garbage.
    execArgv: ['--expose-gc'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './scripts/summary-reporter.ts'],
    globalSetup: ['./packages/server/test/support/report-skips.ts', './e2e/support/build-web.ts'],
  },
});
