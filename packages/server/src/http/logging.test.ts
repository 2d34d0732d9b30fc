import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openTestDatabase } from '../../test/support/database.js';
import { loggerOptions } from './logging.js';

/** A stream that keeps every line written to it. */
function lines() {
  const kept: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      kept.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { kept, stream };
}

describe('the server log', () => {
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);
  const log = lines();
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    process.on('warning', onWarning);
    const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'info', SMTP_URL: 'smtp://127.0.0.1:1' });
    app = await buildApp({
      config,
      database: await openTestDatabase('sqlite'),
      logger: loggerOptions(config, log.stream),
    });
    await app.ready();
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    await app?.close();
  });

  it('emits no deprecation warning when the app is built (FSTDEP023: the request-logging option)', async () => {
    await new Promise((r) => setImmediate(r));
    expect(warnings.map((w) => `${(w as { code?: string }).code ?? ''} ${w.message}`)).toEqual([]);
  });

  it('writes JSON in production: a failed request at info, no line per successful request', async () => {
    log.kept.length = 0;
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/nothing-here?token=secret' })).statusCode).toBe(404);
    const entries = log.kept.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => [e.msg, e.level])).toEqual([['request completed', 30]]);
    expect(entries[0]).toMatchObject({ req: { method: 'GET', url: '/api/nothing-here' }, res: { statusCode: 404 } });
  });

  it('writes readable lines in development and JSON in test and production', () => {
    const dev = loggerOptions({ logLevel: 'info', nodeEnv: 'development' });
    expect(dev.stream).toBeDefined();
    for (const nodeEnv of ['production', 'test'] as const) {
      expect(loggerOptions({ logLevel: 'info', nodeEnv }).stream).toBeUndefined();
    }
  });
});
