import type { Dialect } from '../../src/db/database.js';

/**
 * Which outside services the tests may use. On a laptop without them, their suites are skipped
 * (and listed at the end of the run); with REQUIRE_SERVICES=1, as in CI, a missing one fails.
 */
export const services = {
  postgresUrl: process.env.TEST_DATABASE_URL || undefined,
  redisUrl: process.env.TEST_REDIS_URL || undefined,
  required: process.env.REQUIRE_SERVICES === '1',
};

if (services.required && (!services.postgresUrl || !services.redisUrl)) {
  throw new Error('REQUIRE_SERVICES=1 but TEST_DATABASE_URL and TEST_REDIS_URL are not both set.');
}

export interface DialectCase {
  dialect: Dialect;
  /** Why the dialect's suites are skipped here, if they are. */
  skip: string | false;
}

/** Every store and service suite runs once per dialect: `for (const { dialect, skip } of DIALECTS)`. */
export const DIALECTS: DialectCase[] = [
  { dialect: 'sqlite', skip: false },
  { dialect: 'postgres', skip: services.postgresUrl ? false : 'TEST_DATABASE_URL is not set' },
];

export const REDIS_SKIP: string | false = services.redisUrl ? false : 'TEST_REDIS_URL is not set';
