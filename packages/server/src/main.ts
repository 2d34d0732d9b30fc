import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadConfig, startEnv } from './config.js';
import { StartError } from './lib/start-error.js';
import { createDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { trackConnections } from './http/drain.js';
import { listen } from './http/listen.js';
import { connectRedis } from './lib/redis.js';

/** Longest drain before the process exits regardless. */
const DRAIN_MS = 10_000;

/** `npm start`: read config, migrate, listen; on SIGTERM/SIGINT drain and exit within 10 seconds. */
async function main(): Promise<void> {
  // Nothing is in flight before the app exists: a signal while starting ends the process at once, with 0.
  const early = () => process.exit(0);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, early);
  const config = loadConfig(startEnv(process.env, process.argv.slice(2)));
  const database = createDatabase(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    namedStatements: config.databaseNamedStatements,
  });
  await migrateToLatest(database);
  const redis = config.redis
    ? await connectRedis(config.redis, (err, attempt) => {
        // Said at once, then about every 40 seconds: a start waiting on Redis is not a hung one.
        if (attempt % 8 === 1) console.error(`Waiting for Redis (REDIS_URL or REDIS_CLUSTER_NODES): ${err.message}`);
      })
    : undefined;
  const app = await buildApp({ config, database, redis, ...(config.webRoot ? { webRoot: config.webRoot } : {}) });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.off(signal, early);
  const connections = trackConnections(app.server);
  closeOnSignal(app, async () => {
    // A connection whose request ends during the drain (keep-alive) would hold the exit until its client lets go.
    connections.closeIdle();
    const idle = setInterval(() => connections.closeIdle(), 100).unref();
    await app.close();
    clearInterval(idle);
    await database.destroy();
    await redis?.quit();
  });

  await listen(app, config.port, config.host).catch((err: unknown) => {
    const code = (err as NodeJS.ErrnoException).code;
    if (!code) throw err;
    throw new StartError(
      `Cannot listen on ${config.host ?? 'every address'}, port ${config.port} (HOST, PORT): ${code}`,
    );
  });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // The file named: a relative DATABASE_URL is read from the working directory, which differs between ways of starting.
  const where = database.file ? `${database.dialect}, ${database.file}` : database.dialect;
  console.log(`Howl is listening on http://localhost:${port} (database: ${where})`);
  // Rank indexes load in the background, a board at a time; a board asked about first loads at once.
  app.warmUpRanks().catch((err: unknown) => app.log.error({ err }, 'rank index warm-up failed'));
}

/**
 * Drains once: requests in flight are answered, new ones get 503, then the process exits 0. The
 * signal may arrive more than once (a terminal signals npm and the server, and npm forwards its
 * copy): repeats during the drain are ignored, and the drain is cut short after 10 seconds.
 */
function closeOnSignal(app: FastifyInstance, close: () => Promise<void>): void {
  let closing = false;
  const shutdown = (reason: string, code: number) => {
    if (closing) return;
    closing = true;
    app.log.info(`${reason}, shutting down`);
    setTimeout(() => {
      app.log.error(`still draining after ${DRAIN_MS / 1000} s, exiting`);
      process.exit(1);
    }, DRAIN_MS).unref();
    close().then(
      () => process.exit(code),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => shutdown(`${signal} received`, 0));
  for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
    process.on(event, (err: unknown) => {
      app.log.fatal({ err }, event);
      shutdown(`${event}`, 1);
    });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof StartError ? err.message : err);
  process.exit(1);
});
