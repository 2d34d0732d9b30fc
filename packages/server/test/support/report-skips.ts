import { existsSync } from 'node:fs';
/** Says, at the start and the end of `npm test`, which suites are skipped on this machine and why. */
export default function reportSkips(): () => void {
  const skipped: string[] = [];
  if (!process.env.TEST_DATABASE_URL)
    skipped.push('PostgreSQL suites: TEST_DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)');
  if (!process.env.TEST_REDIS_URL)
    skipped.push('Redis suites: TEST_REDIS_URL is not set (e.g. redis://127.0.0.1:6379)');
  if (!existsSync('/usr/bin/chromium'))
    skipped.push('Browser suites: /usr/bin/chromium is missing (apt-get install chromium)');
  const report = () => {
    if (skipped.length === 0) return;
    console.log(`\nSkipped on this machine:\n${skipped.map((s) => `  - ${s}`).join('\n')}\n`);
  };
  report();
  return report;
}
