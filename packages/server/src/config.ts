import { withField } from '@howl/contract';
import { isIP } from 'node:net';
import { z } from 'zod';
import type { RedisTarget } from './lib/redis.js';
import { StartError } from './lib/start-error.js';

// Digits only: `1e3`, `0x10` and `12abc` are typing mistakes, not numbers to guess at.
const wholeNumber = z.string().trim().regex(/^\d+$/, { message: 'must be a whole number' }).transform(Number);
const port = wholeNumber.pipe(z.number().max(65535, { message: 'must be a port number (0 to 65535)' }));
const positiveInt = wholeNumber.pipe(z.number().positive({ message: 'must be a whole number above 0' }));
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];
/** A contiguous IPv4 netmask other than 0.0.0.0 (255.255.0.0), as a proxy list may give a range. */
const isNetmask = (mask: string) => {
  const bits = mask
    .split('.')
    .map((o) => Number(o).toString(2).padStart(8, '0'))
    .join('');
  return isIP(mask) === 4 && /^1+0*$/.test(bits);
};
/** One entry of TRUST_PROXY's list: a named range, an address, or an address with a prefix length or mask. */
const isProxyEntry = (entry: string) => {
  if (PROXY_RANGES.includes(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (rest.length > 0 || family === 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) >= 1 && Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isNetmask(range);
};
/** A switch written 1 (on) or 0 (off); empty is the default. */
const onOff = (fallback: '0' | '1') =>
  z
    .string()
    .trim()
    .default(fallback)
    .refine((v) => ['', '0', '1'].includes(v), { message: 'must be 1 (on) or 0 (off)' })
    .transform((v) => (v === '' ? fallback : v) === '1');
const optionalUrl = (protocols: RegExp, example: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || protocols.test(v), { message: `must look like ${example}` });

/** Every environment variable Howl reads, with its default. The README's table mirrors this. */
const envSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().optional(),
  DATABASE_URL: z
    .string()
    .default('sqlite:./data/howl.db')
    .refine((v) => /^(sqlite:|postgres(ql)?:\/\/)/.test(v), {
      message:
        'must start with sqlite: (e.g. sqlite:./data/howl.db) or postgres:// (e.g. postgres://user@127.0.0.1:5432/howl)',
    }),
  DATABASE_POOL_SIZE: positiveInt.optional(),
  DATABASE_NAMED_STATEMENTS: onOff('1'),
  REDIS_URL: optionalUrl(/^rediss?:\/\//, 'redis://127.0.0.1:6379'),
  REDIS_CLUSTER_NODES: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v.split(',').map((n) => n.trim()) : undefined))
    .refine(
      (nodes) =>
        nodes === undefined || nodes.every((n) => /^rediss?:\/\/([^@/]*@)?(\[[\da-f:]+\]|[^:@/[\]]+):\d+\/?$/i.test(n)),
      {
        message: 'must be a comma-separated list of node URLs such as redis://10.0.0.1:6379,redis://10.0.0.2:6379',
      },
    ),
  SMTP_URL: optionalUrl(/^smtps?:\/\//, 'smtp://user:pass@smtp.example.com:587'),
  MAIL_FROM: z
    .string()
    .trim()
    .default('Howl <no-reply@localhost>')
    .refine((v) => /^(?:[^<>@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/.test(v), {
      message: 'must be an address, such as Howl <no-reply@howl.example.com> or no-reply@howl.example.com',
    }),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, message: 'must be a full http:// or https:// URL such as https://howl.example.com' })
    .optional(),
  SUPPORT_EMAIL: z.email({ message: 'must be an email address' }).default('support@localhost'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DEV_OUTBOX: onOff('0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT: positiveInt.default(1024 * 1024),
  TRUST_PROXY: z
    .string()
    .trim()
    .default('false')
    .refine((v) => v !== 'true', {
      message:
        'must be a number of proxy hops (e.g. 1 behind one load balancer) or a list of proxy addresses; "true" would let any client choose its own IP',
    })
    .refine(
      (v) =>
        v === 'true' ||
        ['', 'false'].includes(v) ||
        /^\d+$/.test(v) ||
        v.split(',').every((e) => isProxyEntry(e.trim())),
      {
        message:
          'must be a number of proxy hops (e.g. 1), or a comma-separated list of proxy addresses (10.0.0.2, 10.0.0.0/8, loopback)',
      },
    )
    .transform((v): number | string | false =>
      v === 'false' || v === '0' || v === '' ? false : /^\d+$/.test(v) ? Number(v) : v,
    ),
  SIGNIN_FAILURES_PER_ACCOUNT: positiveInt.default(10),
  SIGNIN_FAILURE_WINDOW_SECONDS: positiveInt.default(15 * 60),
  SIGNIN_FAILURES_PER_IP: positiveInt.default(100),
  AUTH_REQUESTS_PER_IP_PER_MINUTE: positiveInt.default(30),
  CODE_MAILS_PER_ACCOUNT_PER_HOUR: positiveInt.default(5),
  CODE_MAILS_PER_ADDRESS_PER_HOUR: positiveInt.default(10),
  DEVELOPER_SESSION_DAYS: positiveInt.default(30),
  GAME_API_REQUESTS_PER_KEY_PER_MINUTE: positiveInt.default(6000),
  GAME_API_REQUESTS_PER_IP_PER_MINUTE: positiveInt.default(600),
  CONTACT_REQUESTS_PER_IP_PER_HOUR: positiveInt.default(10),
  RANK_INDEX: z.enum(['memory', 'redis', 'sql']).optional(),
  SILENTWOLF_COMPAT: z
    .string()
    .trim()
    .default('1')
    .refine((v) => ['', '0', '1'].includes(v), { message: 'must be 1 (on) or 0 (off)' })
    .transform((v) => v !== '0'),
  WEB_ROOT: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined)),
});

export interface Config {
  port: number;
  host: string | undefined;
  databaseUrl: string;
  /** PostgreSQL connections the server keeps at most; sized for the machine when unset (db/database.ts). */
  databasePoolSize: number | undefined;
  /** PostgreSQL only: the hot reads run as named statements (off behind a pooler that cannot keep them). */
  databaseNamedStatements: boolean;
  /** One Redis (REDIS_URL) or some nodes of a Redis Cluster (REDIS_CLUSTER_NODES); none for one process alone. */
  redis: RedisTarget | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  supportEmail: string;
  nodeEnv: 'development' | 'production' | 'test';
  /** Mail readable at GET /api/dev/outbox (without SMTP_URL): only when turned on, never in production. */
  devOutbox: boolean;
  logLevel: string;
  bodyLimit: number;
  /** Proxy hops, or a comma-separated list of trusted proxy addresses/CIDRs, or false. */
  trustProxy: number | string | false;
  limits: AuthLimits;
  developerSessionDays: number;
  gameApi: { requestsPerKeyPerMinute: number; requestsPerIpPerMinute: number };
  contactRequestsPerIpPerHour: number;
  /** Where positions come from: `memory` (one process), `redis` (shared by many) or `sql` (the reference). */
  rankIndex: 'memory' | 'redis' | 'sql';
  /** Whether the SilentWolf plugin's paths are served at the host root (docs/silentwolf.md). */
  silentWolfCompat: boolean;
  /** Where the built web site lives; the workspace's packages/web/dist when unset. */
  webRoot: string | undefined;
}

export interface AuthLimits {
  signInFailuresPerAccount: number;
  signInFailureWindowSeconds: number;
  /** Failed player sign-ins from one network (IPv4 address or IPv6 /64) per window. */
  signInFailuresPerIp: number;
  authRequestsPerIpPerMinute: number;
  codeMailsPerAccountPerHour: number;
  /** Code mails to one address per hour, whatever the accounts, pools and games that ask. */
  codeMailsPerAddressPerHour: number;
}

export class ConfigError extends StartError {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * A blank variable (`PORT=` in an env file) is one not set, and takes its default; DATABASE_URL
 * excepted, whose blank is refused rather than read as the embedded SQLite file.
 */
function withoutBlanks(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([name, value]) => name === 'DATABASE_URL' || (value ?? '').trim() !== ''),
  );
}

/** Reads and validates the environment once, at start; every bad variable is named. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(withoutBlanks(env));
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (i) =>
          `${withField(i.path.join('.'), i.message, ' ')} (got ${JSON.stringify(hideSecrets(env[String(i.path[0])]))})`,
      ),
    );
  }
  const e = parsed.data;
  if (e.REDIS_URL && e.REDIS_CLUSTER_NODES) {
    throw new ConfigError([
      'REDIS_URL and REDIS_CLUSTER_NODES are both set: set REDIS_URL for one Redis, or REDIS_CLUSTER_NODES for a cluster',
    ]);
  }
  const redis: RedisTarget | undefined = e.REDIS_URL
    ? { url: e.REDIS_URL }
    : e.REDIS_CLUSTER_NODES
      ? { clusterNodes: e.REDIS_CLUSTER_NODES }
      : undefined;
  if (e.RANK_INDEX === 'redis' && !redis) {
    throw new ConfigError(['RANK_INDEX=redis needs REDIS_URL (or REDIS_CLUSTER_NODES)']);
  }
  if (e.DEV_OUTBOX && e.NODE_ENV === 'production') {
    throw new ConfigError([
      'DEV_OUTBOX=1 is refused with NODE_ENV=production: the outbox shows sign-up and reset codes to whoever can reach it; set SMTP_URL for real mail',
    ]);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseNamedStatements: e.DATABASE_NAMED_STATEMENTS,
    redis,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    // Written back by the URL parser: `HTTPS://Howl.Example.com/` is https://howl.example.com.
    publicUrl: (e.PUBLIC_URL ? new URL(e.PUBLIC_URL).href : `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    supportEmail: e.SUPPORT_EMAIL,
    nodeEnv: e.NODE_ENV,
    devOutbox: e.DEV_OUTBOX,
    logLevel: e.LOG_LEVEL,
    bodyLimit: e.BODY_LIMIT,
    trustProxy: e.TRUST_PROXY,
    limits: {
      signInFailuresPerAccount: e.SIGNIN_FAILURES_PER_ACCOUNT,
      signInFailureWindowSeconds: e.SIGNIN_FAILURE_WINDOW_SECONDS,
      signInFailuresPerIp: e.SIGNIN_FAILURES_PER_IP,
      authRequestsPerIpPerMinute: e.AUTH_REQUESTS_PER_IP_PER_MINUTE,
      codeMailsPerAccountPerHour: e.CODE_MAILS_PER_ACCOUNT_PER_HOUR,
      codeMailsPerAddressPerHour: e.CODE_MAILS_PER_ADDRESS_PER_HOUR,
    },
    developerSessionDays: e.DEVELOPER_SESSION_DAYS,
    gameApi: {
      requestsPerKeyPerMinute: e.GAME_API_REQUESTS_PER_KEY_PER_MINUTE,
      requestsPerIpPerMinute: e.GAME_API_REQUESTS_PER_IP_PER_MINUTE,
    },
    contactRequestsPerIpPerHour: e.CONTACT_REQUESTS_PER_IP_PER_HOUR,
    // With Redis, several processes may serve one database: an in-process index would miss their writes.
    rankIndex: e.RANK_INDEX ?? (redis ? 'redis' : 'memory'),
    silentWolfCompat: e.SILENTWOLF_COMPAT,
    webRoot: e.WEB_ROOT,
  };
}

/**
 * `npm run start:cluster` runs several processes on one database: each refusal names what would
 * differ between them (a SQLite file has one writer process, memory keeps to its own process).
 */
export function checkSeveralProcesses(config: Config): void {
  const problems = [
    ...(config.databaseUrl.startsWith('sqlite:')
      ? [
          'several processes need PostgreSQL: DATABASE_URL is a SQLite file, which one process writes (set DATABASE_URL=postgres://…)',
        ]
      : []),
    ...(config.redis
      ? []
      : [
          'several processes need REDIS_URL (or REDIS_CLUSTER_NODES): rate limits, cache invalidations and ranks are shared through Redis',
        ]),
    // Without Redis the index defaults to memory; the missing Redis is the problem to name then.
    ...(config.redis && config.rankIndex === 'memory'
      ? [
          "RANK_INDEX=memory is refused with several processes: one process's index would miss the others' writes (leave it unset for redis)",
        ]
      : []),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
}

/**
 * `npm start` passes `--dev-outbox`, so a try on one machine can read its codes at /api/dev/outbox;
 * NODE_ENV=production, or DEV_OUTBOX set either way, wins over it. A plain `node` start never has it.
 */
export function startEnv(env: NodeJS.ProcessEnv, args: readonly string[]): NodeJS.ProcessEnv {
  if (!args.includes('--dev-outbox') || env.NODE_ENV === 'production' || env.DEV_OUTBOX?.trim()) return env;
  return { ...env, DEV_OUTBOX: '1' };
}

/** `postgres://user:secret@host` → `postgres://***@host`: error messages never print credentials. */
function hideSecrets(value: string | undefined): string | undefined {
  return value?.replace(/\/\/[^@/]*@/g, '//***@');
}
