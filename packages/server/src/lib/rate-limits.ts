import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../http/errors.js';

interface LimiterSpec {
  /** Distinguishes this limiter's keys from others' in a shared store. */
  name: string;
  points: number;
  durationSeconds: number;
}

/** The store every limiter shares: memory for one process, Redis when several processes serve one site. */
export interface LimiterFactory {
  create(spec: LimiterSpec): RateLimiterAbstract;
}

export function memoryLimiters(): LimiterFactory {
  return {
    create: (spec) =>
      new RateLimiterMemory({ keyPrefix: spec.name, points: spec.points, duration: spec.durationSeconds }),
  };
}

export function redisLimiters(redis: Redis, prefix = 'howl:rl'): LimiterFactory {
  return {
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

/** Seconds until a refused caller may try again; at least one. */
function retryAfterSeconds(res: RateLimiterRes): number {
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
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
    if (isRateLimited(err))
      throw new AppError(429, 'LimitExceeded', message, { retryAfterSeconds: retryAfterSeconds(err) });
    throw err;
  }
}
