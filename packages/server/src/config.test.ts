import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'sqlite:./data/howl.db',
      redisUrl: undefined,
      smtpUrl: undefined,
      publicUrl: 'http://localhost:8080',
      nodeEnv: 'development',
      logLevel: 'info',
      bodyLimit: 1_048_576,
      trustProxy: false,
      developerSessionDays: 30,
      limits: {
        signInFailuresPerAccount: 10,
        signInFailureWindowSeconds: 900,
        authRequestsPerIpPerMinute: 30,
        codeMailsPerAccountPerHour: 5,
      },
    });
  });

  it('reads a PostgreSQL URL, Redis, SMTP and a public URL without its trailing slash', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://howl@db:5432/howl',
      REDIS_URL: 'redis://cache:6379',
      SMTP_URL: 'smtp://u:p@mail:587',
      PUBLIC_URL: 'https://howl.example.com/',
      PORT: '9000',
    });
    expect(c).toMatchObject({
      databaseUrl: 'postgres://howl@db:5432/howl',
      redisUrl: 'redis://cache:6379',
      smtpUrl: 'smtp://u:p@mail:587',
      publicUrl: 'https://howl.example.com',
      port: 9000,
    });
  });

  it('names every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', REDIS_URL: 'localhost:6379', NODE_ENV: 'staging' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ['PORT', 'DATABASE_URL', 'REDIS_URL', 'NODE_ENV']) expect(message).toContain(name);
    expect(message).toContain('must start with sqlite:');
  });
});
