import type { RedisClient } from './redis.js';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../http/errors.js';
import { systemClock, type Clock } from './clock.js';
import { windowLimiter, type WindowLimiter } from './window-limits.js';

interface LimiterSpec {
  /** Distinguishes this limiter's keys from others' in a shared store. */
  name: string;
  points: number;
  durationSeconds: number;
}

/** The store every limiter shares: memory for one process, Redis when several processes serve one site. */
export interface LimiterFactory {
  /** Asks the store on every call: exact across processes, for rare calls (sign-ins, mails). */
  create(spec: LimiterSpec): RateLimiterAbstract;
  /** Counts in the process and reconciles with the store in the background, for every game call (lib/window-limits.ts). */
  window(spec: LimiterSpec): WindowLimiter;
  /** Sends what window limiters have not yet sent, and stops them. */
  close(): Promise<void>;
}

/** Keeps the window limiters made, so `close` reaches them all. */
function windowLimiters(clock: Clock, redis?: RedisClient, prefix?: string): Pick<LimiterFactory, 'window' | 'close'> {
  const made: WindowLimiter[] = [];
  return {
    window(spec) {
      const limiter = windowLimiter({
        ...spec,
        now: clock.now,
        ...(redis ? { redis } : {}),
        ...(prefix ? { prefix } : {}),
      });
      made.push(limiter);
      return limiter;
    },
    async close() {
      await Promise.all(made.map((limiter) => limiter.close()));
    },
  };
}

/** `clock` places the window limiters' windows (tests hand in one they move). */
export function memoryLimiters(clock: Clock = systemClock): LimiterFactory {
  return {
    create: (spec) =>
      new RateLimiterMemory({ keyPrefix: spec.name, points: spec.points, duration: spec.durationSeconds }),
    ...windowLimiters(clock),
  };
}

export function redisLimiters(redis: RedisClient, clock: Clock = systemClock, prefix = 'howl:rl'): LimiterFactory {
  return {
    ...windowLimiters(clock, redis, prefix),
    create: (spec) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${prefix}:${spec.name}`,
        points: spec.points,
        duration: spec.durationSeconds,
        // While Redis is unreachable each process counts on its own instead of failing every call.
        insuranceLimiter: new RateLimiterMemory({
          keyPrefix: spec.name,
          points: spec.points,
          duration: spec.durationSeconds,
        }),
      }),
  };
}

/** The answer to a caller past a limit: 429 LimitExceeded with `message` and Retry-After (seconds, at least one). */
function refusal(message: string, msBeforeNext: number): AppError {
  return new AppError(429, 'LimitExceeded', message, {
    retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
  });
}

/** rate-limiter-flexible rejects with a RateLimiterRes when points run out, and with an Error when its store fails. */
function isRateLimited(value: unknown): value is RateLimiterRes {
  return value instanceof RateLimiterRes;
}

/**
 * Counts one call against a limiter. Past its points the caller gets 429 LimitExceeded with `message`
 * and a Retry-After; a failing store's error passes through.
 */
export async function consumeOrRefuse(limiter: RateLimiterAbstract, key: string, message: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (err) {
    if (isRateLimited(err)) throw refusal(message, err.msBeforeNext);
    throw err;
  }
}

/** Counts one call against a window limiter, refused as `consumeOrRefuse` refuses; asks no store. */
export function takeOrRefuse(limiter: WindowLimiter, key: string, message: string): void {
  const msBeforeNext = limiter.take(key);
  if (msBeforeNext !== undefined) throw refusal(message, msBeforeNext);
}
