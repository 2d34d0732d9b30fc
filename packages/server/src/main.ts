import closeWithGrace from 'close-with-grace';
import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, startEnv } from './config.js';
import { createDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';

/** `npm start`: read config, migrate, listen; on SIGTERM/SIGINT drain and exit within 10 seconds. */
async function main(): Promise<void> {
  const config = loadConfig(startEnv(process.env, process.argv.slice(2)));
  const database = createDatabase(config.databaseUrl);
  await migrateToLatest(database);
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  const app = await buildApp({ config, database, redis, ...(config.webRoot ? { webRoot: config.webRoot } : {}) });

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info(`${signal} received, shutting down`);
    await app.close();
    await database.destroy();
    await redis?.quit();
  });

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Howl is listening on http://localhost:${port} (database: ${database.dialect})`);
  // Rank indexes load in the background; requests are answered from SQL until they are ready.
  app.warmUpRanks().catch((err: unknown) => app.log.error({ err }, 'rank index warm-up failed'));
}

async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  return redis;
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
