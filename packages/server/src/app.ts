import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RedisClient } from './lib/redis.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { requireJsonOnConsoleMutations } from './http/json-only.js';
import { answerClientError, answerNodeRefusals } from './http/client-errors.js';
import { acceptRawRequestLines } from './http/raw-request-lines.js';
import { errorBody, refuseWhileClosing, registerErrorHandler, type ErrorShape } from './http/errors.js';
import { loggerOptions, requestLogController } from './http/logging.js';
import { registerOpenApi } from './http/openapi.js';
import { registerSecurityHeaders } from './http/security.js';
import { checkingSerializerCompiler, serializerCompiler } from './http/serializer.js';
import { registerWeb } from './http/web.js';
import { createCaches } from './lib/cache.js';
import { systemClock, type Clock } from './lib/clock.js';
import { createPasswordHasher, type PasswordHasher } from './lib/password-hasher.js';
import { memoryLimiters, redisLimiters } from './lib/rate-limits.js';
import { reportRedisOutages } from './lib/redis-outages.js';
import { requireDeveloper, requireOwnerOnGameRoutes } from './http/developer-session.js';
import { silentWolfError } from './modules/compat-silentwolf/answers.js';
import { isSilentWolfPath, SILENTWOLF_HEADERS, silentWolfApi } from './modules/compat-silentwolf/front-door.js';
import { silentWolfPlayerDataRoutes } from './modules/compat-silentwolf/player-data-routes.js';
import { silentWolfPlayerRoutes } from './modules/compat-silentwolf/players-routes.js';
import { silentWolfScoreRoutes } from './modules/compat-silentwolf/scores-routes.js';
import { contactRoutes } from './modules/contact/console-routes.js';
import { createContact } from './modules/contact/service.js';
import { developerRoutes } from './modules/developers/console-routes.js';
import { answerGameApiPreflights, createGameDoor, gameApi, gameCalls } from './modules/games/game-api.js';
import { gameRoutes } from './modules/games/console-routes.js';
import { createGames, gameHold } from './modules/games/service.js';
import { leaderboardGameRoutes, type WriterCheck } from './modules/leaderboards/game-routes.js';
import { playerDataGameRoutes } from './modules/player-data/game-routes.js';
import { playerDataRoutes } from './modules/player-data/console-routes.js';
import { createPlayerData } from './modules/player-data/service.js';
import { memoryRankIndex } from './modules/ranking/memory-index.js';
import { sqlRankIndex } from './modules/ranking/rank-index.js';
import { redisRankIndex } from './modules/ranking/redis-index.js';
import { withTopRows } from './modules/ranking/top-rows.js';
import { importRoutes } from './modules/import/console-routes.js';
import { createImport } from './modules/import/service.js';
import { leaderboardRoutes } from './modules/leaderboards/console-routes.js';
import { createLeaderboards } from './modules/leaderboards/service.js';
import { createDevelopers } from './modules/developers/service.js';
import { healthRoutes } from './modules/health/routes.js';
import { playerGameRoutes } from './modules/players/game-routes.js';
import { playerRows } from './modules/players/game-rows.js';
import { playerRoutes } from './modules/players/console-routes.js';
import { createPlayers } from './modules/players/service.js';
import { createIdentity } from './modules/identity/service.js';
import { purgeExpired, PURGE_EVERY_MS, type PurgedEverything } from './modules/jobs/purge.js';
import { scheduleJob } from './modules/jobs/schedule.js';
import { outboxMailer, smtpMailer, type Mailer } from './modules/mail/mailer.js';
import { outboxRoutes } from './modules/mail/console-routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Starts loading every board's current period into the rank index (main.ts calls it after listen). */
    warmUpRanks(): Promise<number>;
    /** Deletes expired sessions, saved sessions, codes and unconfirmed subscriptions now, whatever the schedule says. */
    purgeExpired(opts?: { batchSize?: number }): Promise<PurgedEverything>;
    /** The scheduled purge's check (run every minute): purges if the run is due and this process claims it. */
    purgeIfDue(): Promise<PurgedEverything | undefined>;
    /** Resolves once the cache invalidations other processes published so far have been applied here. */
    invalidationsHeard(): Promise<void>;
  }
}

const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../web/dist', import.meta.url));

export interface AppDeps {
  config: Config;
  database: Database;
  /** Shared store for rate limits across processes; memory when absent. */
  redis?: RedisClient;
  clock?: Clock;
  hasher?: PasswordHasher;
  /** Redis key prefix of the rank index (tests keep their runs apart with it). */
  rankPrefix?: string;
  /** Where the built web site lives. */
  webRoot?: string;
  logger?: FastifyServerOptions['logger'];
}

/** Wires config, database, mail and clock into a ready Fastify app; `main.ts` starts it, tests inject into it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  // Answers written before a route runs: the SilentWolf paths get their plugin's shape (success: false).
  const shapeError: ErrorShape = (path, body) =>
    config.silentWolfCompat && path !== undefined && isSilentWolfPath(path) ? silentWolfError(body) : body;
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config),
    logController: requestLogController(),
    bodyLimit: config.bodyLimit,
    // Long names (players, boards) reach validation and get its message, not a router error.
    routerOptions: { maxParamLength: 1000 },
    // A hop count means: trust that many proxies in front of us, and take the address the last of them saw.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // Requests that arrive while close() drains get a 503, in the envelope (refuseWhileClosing below).
    return503OnClosing: false,
    // Errors Fastify raises before routing (a malformed URL) still get the one error envelope.
    // Requests Node's HTTP parser refuses (a huge URL, bad chunking, an unknown method) too.
    clientErrorHandler: answerClientError(shapeError),
    // A request without Host reaches answerNodeRefusals, which answers it in the envelope.
    http: { requireHostHeader: false },
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const message =
        error.code === 'FST_ERR_BAD_URL' ? 'The URL is malformed.' : 'The request could not be understood.';
      void reply.code(400).send(shapeError(request.url, errorBody('InvalidParameter', message)));
    },
  }).withTypeProvider<ZodTypeProvider>();
  // Requests are parsed by zod; answers are written by fast-json-stringify from the same contract (http/serializer.ts).
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(config.nodeEnv === 'test' ? checkingSerializerCompiler : serializerCompiler);
  registerErrorHandler(app);
  // Failed requests at info, every request at debug: a busy game's successes would flood the log.
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode >= 400 || request.log.level === 'debug' || request.log.level === 'trace') {
      request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
    done();
  });
  // Game calls: their answers carry CORS and the JSON-only security headers.
  const calls = gameCalls(
    config.silentWolfCompat ? { matches: isSilentWolfPath, headers: SILENTWOLF_HEADERS } : undefined,
  );
  registerSecurityHeaders(app, config.publicUrl, calls);
  refuseWhileClosing(app, shapeError);
  answerNodeRefusals(app, shapeError);
  // Godot sends spaces and raw UTF-8 in request lines; they are percent-encoded before Node's parser refuses them.
  acceptRawRequestLines(app.server);
  requireJsonOnConsoleMutations(app);
  await app.register(cookie);
  await registerOpenApi(app, config.publicUrl);

  // A restarted or failed-over database or Redis costs the requests in flight, never the process.
  database.onConnectionError((err) =>
    app.log.warn({ err }, 'a database connection was lost; the next query opens a new one'),
  );
  if (deps.redis) reportRedisOutages(deps.redis, app.log);

  const clock = deps.clock ?? systemClock;
  const outbox = config.smtpUrl ? undefined : outboxMailer(app.log, config.mailFrom);
  const mailer: Mailer = config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : outbox!;
  app.addHook('onClose', async () => mailer.close());

  const limiters = deps.redis ? redisLimiters(deps.redis, clock) : memoryLimiters(clock);
  // Hits counted in the process reach Redis before it closes.
  app.addHook('onClose', async () => limiters.close());
  const identity = createIdentity({
    db: database.db,
    clock,
    hasher: deps.hasher ?? createPasswordHasher(),
    limiters,
    limits: config.limits,
  });
  // Games and boards read by every game call, kept until a change drops them (in every process, through Redis).
  const caches = await createCaches({
    ...(deps.redis ? { redis: deps.redis } : {}),
    onError: (err) => app.log.warn({ err }, 'a cache invalidation did not reach Redis'),
  });
  app.addHook('onClose', async () => caches.close());
  // Each board's top rows are kept beside the index; with Redis, other processes' writes drop them through `caches`.
  const topRows = { now: () => clock.now() };
  const rankIndex =
    config.rankIndex === 'memory'
      ? withTopRows(memoryRankIndex(database.db, { rows: database.rows, now: () => clock.now() }), topRows)
      : config.rankIndex === 'redis' && deps.redis
        ? withTopRows(
            redisRankIndex(database.db, deps.redis, {
              rows: database.rows,
              ...(deps.rankPrefix ? { prefix: deps.rankPrefix } : {}),
              onError: (err) =>
                app.log.warn(
                  { err },
                  'a rank index notice or rebuild failed; SQL answers for the board until it is rebuilt',
                ),
            }),
            { ...topRows, caches },
          )
        : sqlRankIndex(database.db);
  const leaderboards = createLeaderboards({
    db: database.db,
    clock,
    rankIndex,
    caches,
    onBackgroundError: (err) =>
      app.log.warn({ err }, "gathering the scores table's statistics, or vacuuming it after an import, failed"),
  });
  // Documents are kept in memory only by a process alone on its database (see PlayerDataDeps).
  const playerData = createPlayerData({
    db: database.db,
    clock,
    games: gameHold,
    ...(deps.redis ? {} : { caches }),
    onBackgroundError: (err) =>
      app.log.warn({ err }, "gathering the player data table's statistics, or vacuuming it, after an import failed"),
  });
  const games = createGames({
    db: database.db,
    clock,
    setUpGame: leaderboards.createDefault,
    underGame: [playerRows(identity), leaderboards, playerData],
    caches,
  });
  const developers = createDevelopers({
    db: database.db,
    identity,
    mailer,
    supportEmail: config.supportEmail,
    sessionDays: config.developerSessionDays,
    gamesOf: games.list,
  });
  const players = createPlayers({
    db: database.db,
    identity,
    mailer,
    clock,
    games,
    playerData,
  });
  const requireWriter: WriterCheck = (game, name, authorization) => players.requireWriter(game, name, authorization);
  const contact = createContact({
    db: database.db,
    clock,
    mailer,
    supportEmail: config.supportEmail,
    publicUrl: config.publicUrl,
    limiters,
    logError: (err, message) => app.log.error({ err }, message),
  });
  const cookieSettings = {
    secure: config.publicUrl.startsWith('https://'),
    maxAgeSeconds: config.developerSessionDays * 86_400,
  };

  // Ownership once, before any route exists: every console route with a `:gameId` gets it, whoever adds it.
  requireOwnerOnGameRoutes(app, developers, games.owned);
  await app.register(healthRoutes, { database, ...(deps.redis ? { redis: deps.redis } : {}) });
  await app.register(developerRoutes, { developers, identity, cookie: cookieSettings });
  const signedIn = requireDeveloper(developers);
  await app.register(gameRoutes, { games, signedIn });
  await app.register(leaderboardRoutes, { leaderboards });
  await app.register(playerRoutes, { players });
  await app.register(playerDataRoutes, { playerData });
  await app.register(importRoutes, { importer: createImport({ clock, leaderboards, players, playerData }) });
  await app.register(contactRoutes, {
    contact,
    developers,
    limiters,
    requestsPerIpPerHour: config.contactRequestsPerIpPerHour,
  });
  answerGameApiPreflights(app, calls);
  const door = createGameDoor({ games, limiters, ...config.gameApi });
  await app.register(gameApi, {
    door,
    features: [
      leaderboardGameRoutes(leaderboards, requireWriter),
      playerGameRoutes(players, identity),
      playerDataGameRoutes(playerData, requireWriter),
    ],
  });
  if (config.silentWolfCompat) {
    // The SilentWolf plugin's paths, for games that ship it (docs/silentwolf.md): the same services as `/v1`.
    await app.register(silentWolfApi, {
      door,
      features: [
        silentWolfScoreRoutes(leaderboards, requireWriter),
        silentWolfPlayerRoutes(players, identity),
        silentWolfPlayerDataRoutes(playerData, requireWriter),
      ],
    });
  }
  if (outbox && config.devOutbox) {
    app.log.warn(
      'DEV_OUTBOX is on and SMTP_URL is not set: mail is not sent; it is logged and readable at /api/dev/outbox from this machine only.',
    );
    await app.register(outboxRoutes, { messages: outbox.messages });
  } else if (outbox) {
    app.log.warn('SMTP_URL is not set: mail is not sent, only written to this log.');
  }
  await registerWeb(app, deps.webRoot ?? DEFAULT_WEB_ROOT, calls.matches, shapeError);
  app.decorate('warmUpRanks', () => leaderboards.warmUp());
  app.decorate('invalidationsHeard', () => caches.heard());
  const purge = purgeExpired({ identity, contact });
  app.decorate('purgeExpired', purge);
  // Once per interval across every process on this database, whichever claims it.
  const purgeIfDue = scheduleJob(
    app,
    { db: database.db, clock },
    { name: 'purge-expired', everyMs: PURGE_EVERY_MS, run: purge },
  );
  app.decorate('purgeIfDue', purgeIfDue);
  return app;
}

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}
