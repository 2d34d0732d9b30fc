import { availableParallelism } from 'node:os';
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
    // Vitest's default is one fewer than the cores, so one file at a time on two; most files wait on
    // servers, databases, Chromium and Godot rather than compute: two at a time there take a third less time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Memory tests (the player data export) force a full GC to measure what is retained, not garbage.
    execArgv: ['--expose-gc'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './scripts/summary-reporter.ts'],
    globalSetup: ['./packages/server/test/support/report-skips.ts', './e2e/support/build-web.ts'],
  },
});
