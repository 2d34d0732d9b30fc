import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../test/support/server-process.js';

/** What `npm run start:cluster` prints and its exit code, for a configuration it must refuse before forking. */
async function refusal(env: Record<string, string>): Promise<string> {
  const started = startServerProcess(env, 'src/cluster.ts');
  await expect(started).rejects.toThrow(/the server exited with 1/);
  return (await started.catch((err: Error) => err.message)) as string;
}

// Nothing is reached before the refusal: these addresses need not exist.
const POSTGRES = 'postgres://howl@127.0.0.1:1/howl';
const REDIS = 'redis://127.0.0.1:1';

describe('npm run start:cluster refuses what several processes cannot share', () => {
  it('a SQLite database, a missing REDIS_URL and RANK_INDEX=memory, each with its reason, exit code 1', async () => {
    const [sqlite, noRedis, memory, workers, notDigits, unreachable] = await Promise.all([
      refusal({ DATABASE_URL: 'sqlite:./data/never.db', REDIS_URL: REDIS }),
      refusal({ DATABASE_URL: POSTGRES, REDIS_URL: '' }),
      refusal({ DATABASE_URL: POSTGRES, REDIS_URL: REDIS, RANK_INDEX: 'memory' }),
      refusal({ DATABASE_URL: POSTGRES, REDIS_URL: REDIS, WORKERS: '0' }),
      refusal({ DATABASE_URL: POSTGRES, REDIS_URL: REDIS, WORKERS: '1e1' }),
      // Everything is set right, but the database is not there: said in one line, before any worker starts.
      refusal({ DATABASE_URL: POSTGRES, REDIS_URL: REDIS }),
    ]);
    expect(sqlite).toContain(
      '  - several processes need PostgreSQL: DATABASE_URL is a SQLite file, which one process writes (set DATABASE_URL=postgres://…)\n',
    );
    expect(sqlite).not.toContain('REDIS_URL');
    expect(noRedis).toContain(
      '  - several processes need REDIS_URL (or REDIS_CLUSTER_NODES): rate limits, cache invalidations and ranks are shared through Redis\n',
    );
    expect(noRedis).not.toContain('PostgreSQL');
    expect(noRedis).not.toContain('RANK_INDEX');
    expect(memory).toContain(
      "  - RANK_INDEX=memory is refused with several processes: one process's index would miss the others' writes (leave it unset for redis)\n",
    );
    expect(workers).toContain('  - WORKERS must be a whole number from 1 to 256 (got "0")\n');
    expect(notDigits).toContain('  - WORKERS must be a whole number from 1 to 256 (got "1e1")\n');
    expect(unreachable).toMatch(/\nCannot migrate the database of DATABASE_URL: .*ECONNREFUSED/);
    for (const out of [sqlite, noRedis, memory, workers, notDigits, unreachable])
      expect(out).not.toMatch(/worker \d+ started|\n\s+at /);
  }, 90_000);
});
