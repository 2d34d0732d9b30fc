import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, startEnv } from './config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: undefined,
      databaseUrl: 'sqlite:./data/howl.db',
      databasePoolSize: undefined,
      databaseNamedStatements: true,
      redis: undefined,
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
        codeMailsPerAddressPerHour: 10,
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
      DATABASE_POOL_SIZE: '24',
    });
    expect(c).toMatchObject({
      databaseUrl: 'postgres://howl@db:5432/howl',
      redis: { url: 'redis://cache:6379' },
      smtpUrl: 'smtp://u:p@mail:587',
      publicUrl: 'https://howl.example.com',
      port: 9000,
      databasePoolSize: 24,
    });
  });

  it('takes TRUST_PROXY as a hop count or a list of proxies, and refuses "true"', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }).trustProxy).toBe('10.0.0.0/8,127.0.0.1');
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY must be a number of proxy hops/);
  });

  it('refuses a TRUST_PROXY that is neither a hop count nor a list of addresses, naming it', () => {
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/255.0.0.0, ::1/128' }).trustProxy).toBe(
      'loopback, 10.0.0.0/255.0.0.0, ::1/128',
    );
    for (const bad of [
      'yes',
      'TRUE',
      '-1',
      '10.0.0.0/8,proxy.local',
      '10.0.0.1/8/9',
      '10.0.0.0/0',
      '10.0.0.0/33',
      '::1/129',
      '10.0.0.0/255.0.255.0',
      '::1/255.0.0.0',
    ])
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY must be a number of proxy hops/);
  });

  it('reads numbers as digits only, and a blank variable as one not set', () => {
    for (const [name, value] of [
      ['PORT', '1e3'],
      ['PORT', '0x50'],
      ['AUTH_REQUESTS_PER_IP_PER_MINUTE', '0x10'],
      ['BODY_LIMIT', '1.5'],
      ['DATABASE_POOL_SIZE', '0'],
    ] as const)
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(name));
    const blank = loadConfig({ PORT: '', DATABASE_POOL_SIZE: ' ', MAIL_FROM: '', TRUST_PROXY: '' });
    expect(blank).toMatchObject({ port: 8080, databasePoolSize: undefined, mailFrom: 'Howl <no-reply@localhost>' });
    expect(blank.publicUrl).toBe('http://localhost:8080');
    expect(() => loadConfig({ DATABASE_URL: '' })).toThrow(/DATABASE_URL must start with sqlite:/);
  });

  it('takes PUBLIC_URL as http or https only, written back in lower case, and MAIL_FROM as an address', () => {
    expect(loadConfig({ PUBLIC_URL: 'HTTPS://Howl.Example.com/' }).publicUrl).toBe('https://howl.example.com');
    for (const bad of ['howl.example.com:443', 'ftp://howl.example.com'])
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(
        /PUBLIC_URL must be a full http:\/\/ or https:\/\/ URL/,
      );
    expect(loadConfig({ MAIL_FROM: 'Wolf Games <games@wolf.example>' }).mailFrom).toBe(
      'Wolf Games <games@wolf.example>',
    );
    expect(loadConfig({ MAIL_FROM: 'games@wolf.example' }).mailFrom).toBe('games@wolf.example');
    for (const bad of ['garbage', 'Wolf <games>', 'a b@c.d'])
      expect(() => loadConfig({ MAIL_FROM: bad }), bad).toThrow(/MAIL_FROM must be an address/);
  });

  it('has no development outbox unless DEV_OUTBOX turns it on, and never in production', () => {
    expect(loadConfig({}).devOutbox).toBe(false);
    expect(loadConfig({ DEV_OUTBOX: '1' }).devOutbox).toBe(true);
    expect(loadConfig({ DEV_OUTBOX: '0' }).devOutbox).toBe(false);
    expect(loadConfig({ DEV_OUTBOX: '' }).devOutbox).toBe(false);
    expect(() => loadConfig({ DEV_OUTBOX: 'yes' })).toThrow(/DEV_OUTBOX must be 1 \(on\) or 0 \(off\)/);
    expect(loadConfig({ DATABASE_NAMED_STATEMENTS: '0' }).databaseNamedStatements).toBe(false);
    expect(loadConfig({ DATABASE_NAMED_STATEMENTS: '' }).databaseNamedStatements).toBe(true);
    expect(() => loadConfig({ DATABASE_NAMED_STATEMENTS: 'off' })).toThrow(
      /DATABASE_NAMED_STATEMENTS must be 1 \(on\) or 0 \(off\)/,
    );
    expect(() => loadConfig({ DEV_OUTBOX: '1', NODE_ENV: 'production' })).toThrow(
      /DEV_OUTBOX=1 is refused with NODE_ENV=production/,
    );
  });

  it('turns the outbox on for `npm start` (--dev-outbox) unless NODE_ENV=production or DEV_OUTBOX says otherwise', () => {
    const start = (env: Record<string, string>) => loadConfig(startEnv(env, ['--dev-outbox'])).devOutbox;
    expect(start({})).toBe(true);
    expect(start({ DEV_OUTBOX: '' })).toBe(true);
    expect(start({ DEV_OUTBOX: '0' })).toBe(false);
    expect(start({ NODE_ENV: 'production' })).toBe(false);
    expect(loadConfig(startEnv({}, [])).devOutbox).toBe(false);
  });

  it('never prints credentials of a rejected URL', () => {
    expect(() => loadConfig({ REDIS_URL: 'http://user:hunter2@cache:6379' })).toThrow(/\/\/\*\*\*@cache/);
    expect(() => loadConfig({ REDIS_URL: 'http://user:hunter2@cache:6379' })).not.toThrow(/hunter2/);
  });

  it('takes a Redis Cluster as a list of node URLs, and refuses a malformed list or both Redis settings at once', () => {
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'redis://10.0.0.1:6379, redis://:s3cret@10.0.0.2:6380' })).toMatchObject({
      redis: { clusterNodes: ['redis://10.0.0.1:6379', 'redis://:s3cret@10.0.0.2:6380'] },
      rankIndex: 'redis',
    });
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'rediss://[::1]:7000' }).redis).toEqual({
      clusterNodes: ['rediss://[::1]:7000'],
    });
    for (const bad of ['10.0.0.1:6379', 'redis://10.0.0.1', 'redis://10.0.0.1:6379,,redis://10.0.0.2:6379']) {
      expect(() => loadConfig({ REDIS_CLUSTER_NODES: bad })).toThrow(
        /REDIS_CLUSTER_NODES must be a comma-separated list of node URLs such as redis:\/\/10\.0\.0\.1:6379,redis:\/\/10\.0\.0\.2:6379/,
      );
    }
    const secret = 'redis://:hunter2@a:6379,redis://:hunter2@b';
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: secret })).toThrow(/"redis:\/\/\*\*\*@a:6379,redis:\/\/\*\*\*@b"/);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: secret })).not.toThrow(/hunter2/);
    expect(() => loadConfig({ REDIS_URL: 'redis://cache:6379', REDIS_CLUSTER_NODES: 'redis://a:6379' })).toThrow(
      /REDIS_URL and REDIS_CLUSTER_NODES are both set/,
    );
  });

  it('ranks in memory for one process, in Redis when REDIS_URL says several may share the database, or as RANK_INDEX says', () => {
    expect(loadConfig({}).rankIndex).toBe('memory');
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379' }).rankIndex).toBe('redis');
    expect(loadConfig({ RANK_INDEX: 'sql' }).rankIndex).toBe('sql');
    expect(() => loadConfig({ RANK_INDEX: 'redis' })).toThrow(/RANK_INDEX=redis needs REDIS_URL/);
    expect(() => loadConfig({ RANK_INDEX: 'fast' })).toThrow(/RANK_INDEX/);
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

  it('names each bad variable once, with the contract loaded as the server loads it', async () => {
    await import('@howl/contract');
    let problems: string[] = [];
    try {
      loadConfig({ PORT: 'eighty', RANK_INDEX: 'fast' });
    } catch (e) {
      problems = (e as ConfigError).problems;
    }
    expect(problems).toEqual([
      'PORT must be a whole number (got "eighty")',
      'RANK_INDEX must be one of "memory", "redis", "sql". (got "fast")',
    ]);
  });
});
