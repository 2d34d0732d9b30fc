import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../packages/server/test/support/database.js';
import { services } from '../packages/server/test/support/services.js';
import { npmStart, stopNpmStart, type NpmStart } from './support/npm-start.js';

/** Waits up to 60 s for `pattern` to have appeared `count` times in the output (workers start in parallel). */
async function printed(howl: NpmStart, pattern: RegExp, count: number): Promise<string[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = [...howl.output().matchAll(new RegExp(pattern, 'g'))].map((m) => m[1]!);
    if (found.length >= count) return found;
    if (Date.now() > deadline)
      throw new Error(`${pattern} printed ${found.length} times, not ${count}:\n${howl.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!services.postgresUrl || !services.redisUrl)('npm run start:cluster with WORKERS=3', () => {
  let dataDir: string;
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let howl: NpmStart;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'howl-cluster-'));
    fresh = await freshDatabase('postgres');
    howl = await npmStart(dataDir, ['run', 'start:cluster'], {
      DATABASE_URL: fresh.url,
      REDIS_URL: services.redisUrl!,
      WORKERS: '3',
    });
  }, 600_000);

  afterAll(async () => {
    await stopNpmStart(howl);
    await fresh?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs three compiled workers on one port, each answering', async () => {
    expect(howl.output()).toContain('exec node dist/cluster.js');
    const ports = await printed(howl, /Howl is listening on http:\/\/localhost:(\d+)/, 3);
    expect(new Set(ports).size).toBe(1);
    for (let i = 0; i < 6; i++) {
      const health = await fetch(`${howl.url}/healthz`);
      expect(await health.json()).toEqual({ status: 'ok', database: 'postgres', redis: 'up' });
    }
  }, 90_000);

  it('replaces a worker that dies, then drains every worker on SIGTERM and exits 0', async () => {
    const [first] = await printed(howl, /worker (\d+) started/, 3);
    process.kill(Number(first), 'SIGKILL');
    await printed(howl, /worker \d+ exited with signal SIGKILL; starting another/, 1);
    await printed(howl, /Howl is listening on/, 4);
    expect((await fetch(`${howl.url}/healthz`)).status).toBe(200);

    const exited = new Promise<number | null>((resolve) => howl.child.on('exit', (code) => resolve(code)));
    process.kill(howl.child.pid!, 'SIGTERM');
    expect(await exited).toBe(0);
    expect(howl.output().match(/SIGTERM received, shutting down/g)).toHaveLength(3);
    await expect(fetch(`${howl.url}/healthz`)).rejects.toThrow();
  }, 90_000);
});
