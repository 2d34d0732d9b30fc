import { Cluster, Redis, type ClusterNode, type RedisOptions } from 'ioredis';
import { StartError } from './start-error.js';

/**
 * A connection to one Redis or to a Redis Cluster: the code that takes one sends each command, script
 * or pipeline to keys of one hash slot only (keys touched together share a `{…}` hash tag).
 */
export type RedisClient = Redis | Cluster;

/** Where Redis is: one server's URL, or the URLs of some of a cluster's nodes (the rest are discovered). */
export type RedisTarget = { url: string } | { clusterNodes: string[] };

const OPTIONS: RedisOptions = { maxRetriesPerRequest: 2 };

/** Redis's answers to a wrong password or user, or one without the rights the server needs. */
const CREDENTIALS_REFUSED = /^(WRONGPASS|NOAUTH|NOPERM)\b/;
/** How long to wait between tries while Redis cannot be reached at start: growing to 5 s. */
const retryDelayMs = (attempt: number) => Math.min(500 * attempt, 5_000);

/**
 * Connects and waits until commands can be sent; a cluster is ready once its slots are known.
 * While Redis cannot be reached it tries again, telling `onWait` why, rather than failing: a
 * process started (or a cluster's worker replaced) during a Redis outage starts once it is back.
 * Refused credentials and a database number the server refuses (`redis://…/99`) are no outage,
 * and fail at once.
 */
export async function connectRedis(
  target: RedisTarget,
  onWait: (err: Error, attempt: number) => void = () => {},
): Promise<RedisClient> {
  for (let attempt = 1; ; attempt++) {
    const redis = 'url' in target ? new Redis(target.url, { ...OPTIONS, lazyConnect: true }) : clusterClient(target);
    // This try's errors are heard here: left unheard they would be printed as unhandled, and they
    // say why (connect() itself only says the connection closed). A cluster tells its nodes' apart.
    const heard: Error[] = [];
    const hear = (err: Error) => heard.push(err);
    redis.on('error', hear);
    redis.on('node error', hear);
    try {
      await redis.connect();
    } catch (err) {
      redis.disconnect();
      // Redis answered and refused the credentials: a setting to fix, not an outage to wait out
      // (a full Redis, `max number of clients reached`, is waited out).
      const refused = heard.find((e) => CREDENTIALS_REFUSED.test(e.message));
      if (refused) {
        throw new StartError(`Redis refused the connection (REDIS_URL or REDIS_CLUSTER_NODES): ${refused.message}`);
      }
      onWait(heard[0] ?? (err as Error), attempt);
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt)));
      continue;
    }
    try {
      if ('url' in target) await selectDatabase(redis as Redis, target.url);
    } catch (err) {
      redis.disconnect();
      throw err;
    }
    redis.off('error', hear);
    redis.off('node error', hear);
    return redis;
  }
}

/** ioredis selects the URL's database quietly, and stays on 0 if it may not: asked here, a refusal is seen. */
async function selectDatabase(redis: Redis, url: string): Promise<void> {
  const db = new URL(url).pathname.slice(1);
  if (!db || db === '0') return;
  try {
    await redis.select(Number(db));
  } catch (err) {
    throw new StartError(`REDIS_URL names database ${db}, which this Redis refuses: ${(err as Error).message}`);
  }
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
