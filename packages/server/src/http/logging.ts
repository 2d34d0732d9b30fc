import { LogController, type FastifyServerOptions } from 'fastify';
import pretty from 'pino-pretty';
import type { Config } from '../config.js';

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/**
 * The server's log: readable lines in development (`npm start`), one JSON object per line otherwise,
 * for a log collector. Secrets in headers are redacted, query strings dropped.
 */
export function loggerOptions(config: Pick<Config, 'logLevel' | 'nodeEnv'>, stream?: LoggerOptions['stream']) {
  const options: LoggerOptions = {
    level: config.logLevel,
    redact: [
      'req.headers.cookie',
      'req.headers["x-api-key"]',
      'req.headers.authorization',
      'res.headers["set-cookie"]',
    ],
    // Query strings can carry tokens (newsletter links, cursors): request logs keep the path only.
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: req.url.split('?')[0],
        remoteAddress: req.ip,
      }),
    },
  };
  // Synchronous so that the lines of a shutdown are written before the process exits.
  const out = stream ?? (config.nodeEnv === 'development' ? prettyStream() : undefined);
  return out ? { ...options, stream: out } : options;
}

function prettyStream() {
  return pretty({ sync: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' });
}

/** Two info lines per request cost more than some answers do; app.ts's onResponse hook logs what matters. */
export function requestLogController(): LogController {
  return new LogController({ disableRequestLogging: true });
}
