import { describe, expect, it } from 'vitest';
import { sharedRedis, useRedisCluster } from '../../test/support/redis-cluster.js';
import { services } from '../../test/support/services.js';
import { startTcpProxy } from '../../test/support/tcp-proxy.js';
import { connectRedis } from './redis.js';
import { StartError } from './start-error.js';

describe.skipIf(!services.redisUrl)('connecting to Redis at start', () => {
  const base = new URL(services.redisUrl ?? 'redis://x');
  const target = { host: base.hostname, port: Number(base.port || 6379) };

  it('waits while Redis cannot be reached, saying why, and connects once it is back', async () => {
    const proxy = await startTcpProxy(target);
    await proxy.down();
    const waits: string[] = [];
    let back: () => void;
    const retried = new Promise<void>((resolve) => (back = resolve));
    const connecting = connectRedis({ url: `redis://127.0.0.1:${proxy.port}` }, (err, attempt) => {
      waits.push(`${attempt}: ${err.message}`);
      if (attempt === 2) back();
    });
    await retried;
    await proxy.up();
    const redis = await connecting;
    try {
      expect(await redis.ping()).toBe('PONG');
      expect(waits.length).toBeGreaterThanOrEqual(2);
      expect(waits[0]).toMatch(/^1: /);
    } finally {
      redis.disconnect();
      await proxy.close();
    }
  });

  it('refuses at once a database number the server does not have, instead of using database 0', async () => {
    const refused = await connectRedis({ url: `redis://${target.host}:${target.port}/9999` }).then(
      (redis) => (redis.disconnect(), undefined),
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(StartError);
    expect((refused as Error).message).toMatch(/^REDIS_URL names database 9999, which this Redis refuses: ERR/);
  });

  it('stops at once, saying why, when Redis refuses the credentials: a setting to fix, not an outage to wait out', async () => {
    const waits: string[] = [];
    const refused = await connectRedis(
      { url: `redis://no-such-user:wrong-password@${target.host}:${target.port}` },
      (err) => waits.push(err.message),
    ).then(
      (redis) => (redis.disconnect(), undefined),
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(StartError);
    expect((refused as Error).message).toMatch(
      /^Redis refused the connection \(REDIS_URL or REDIS_CLUSTER_NODES\): WRONGPASS/,
    );
    expect((refused as Error).message).not.toContain('wrong-password');
    expect(waits).toEqual([]);
  });
});

const cluster = sharedRedis().find((s) => s.label === 'redis cluster')!;
describe.skipIf(cluster.skip)('connecting to a Redis Cluster at start', () => {
  const started = useRedisCluster();

  it('stops at once, saying why, when the nodes refuse the credentials', async () => {
    const nodes = started().nodes.map((n) => n.replace('redis://', 'redis://no-such-user:wrong-password@'));
    const refused = await connectRedis({ clusterNodes: nodes }).then(
      (redis) => (redis.disconnect(), undefined),
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(StartError);
    expect((refused as Error).message).toMatch(
      /^Redis refused the connection \(REDIS_URL or REDIS_CLUSTER_NODES\): WRONGPASS/,
    );
  });
});
