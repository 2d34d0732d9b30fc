import { Cluster, Redis, type ClusterNode, type RedisOptions } from 'ioredis';

/**
 * A connection to one Redis or to a Redis Cluster: the code that takes one sends each command, script
 * or pipeline to keys of one hash slot only (keys touched together share a `{…}` hash tag).
 */
export type RedisClient = Redis | Cluster;

/** Where Redis is: one server's URL, or the URLs of some of a cluster's nodes (the rest are discovered). */
export type RedisTarget = { url: string } | { clusterNodes: string[] };

const OPTIONS: RedisOptions = { maxRetriesPerRequest: 2 };

/** Connects and waits until commands can be sent; a cluster is ready once its slots are known. */
export async function connectRedis(target: RedisTarget): Promise<RedisClient> {
  const redis = 'url' in target ? new Redis(target.url, { ...OPTIONS, lazyConnect: true }) : clusterClient(target);
  await redis.connect();
  return redis;
}

/** The first URL's credentials and scheme (`rediss:` for TLS) serve every node, as a cluster shares them. */
function clusterClient({ clusterNodes }: { clusterNodes: string[] }): Cluster {
  const urls = clusterNodes.map((u) => new URL(u));
  const nodes: ClusterNode[] = urls.map((u) => ({
    host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(u.port),
  }));
  const first = urls[0]!;
  return new Cluster(nodes, {
    lazyConnect: true,
    redisOptions: {
      ...OPTIONS,
      ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
      ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
      ...(first.protocol === 'rediss:' ? { tls: {} } : {}),
    },
  });
}
