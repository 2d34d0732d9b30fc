import type { RedisClient } from './redis.js';
import { withTimeout } from './timeout.js';

/**
 * A limit counted in the process and reconciled with Redis in the background, for the game API's
 * front door: every game call is checked, so asking Redis each time would add a round trip to every
 * call. rate-limiter-flexible asks its store on each consume (`inMemoryBlockOnConsumed` only spares
 * the calls of a key already over its points; `RateLimiterQueue`, `BurstyRateLimiter` and
 * `RateLimiterUnion` still ask per call), hence this module.
 *
 * Windows are fixed and aligned to the clock (`floor(now / duration)`), so every process counts the
 * same window in the same Redis key (`<prefix>:{<name>:w<window>}:<key>`) and a new window starts at 0;
 * the hash tag keeps one limiter's window in one slot, so a sync is one pipeline on a Redis Cluster too.
 * A hit is admitted while the window's global count as last learned from Redis plus this process's
 * hits not yet counted there stay under the points. At most every `syncMs` one pipeline adds those
 * hits to Redis (INCRBY, PEXPIRE) and learns each key's global count from the answer.
 *
 * Overshoot: once the global count reaches the points, each process may still admit what it takes
 * until its next completed sync learns so (at most two sync intervals of its own hits), and never
 * more than the points itself; so across processes at most processes × min(points, hits per two
 * intervals) past the points. One process alone refuses exactly at the points.
 * While Redis does not answer, its hits wait in the process and every process limits on its own.
 */
export interface WindowLimiter {
  /** Counts one hit of `key`: undefined when admitted, else the milliseconds until the window ends. */
  take(key: string): number | undefined;
  /** Sends the hits not yet in Redis now and waits for the answer (shutdown, tests). */
  flush(): Promise<void>;
  /** Stops syncing, once what is left has been sent. */
  close(): Promise<void>;
}

export interface WindowLimiterOptions {
  name: string;
  points: number;
  durationSeconds: number;
  /** Shared with the other processes; without it the process counts alone. */
  redis?: RedisClient;
  prefix?: string;
  syncMs?: number;
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
  onError?: (err: unknown) => void;
}

const DEFAULT_SYNC_MS = 100;
// A sync that has no answer by then is counted as failed: its hits stay local and go with the next
// (should it land after all, they count twice, which errs towards refusing).
const SYNC_TIMEOUT_MS = 2_000;

/** One key's count in the current window. */
interface Count {
  /** The global count Redis last answered, our synced hits included. */
  known: number;
  /** Hits sent in the sync under way. */
  sending: number;
  /** Hits not yet sent. */
  unsent: number;
}

export function windowLimiter(opts: WindowLimiterOptions): WindowLimiter {
  const durationMs = opts.durationSeconds * 1000;
  const now = opts.now ?? Date.now;
  const syncMs = opts.syncMs ?? DEFAULT_SYNC_MS;
  const onError = opts.onError ?? (() => {});
  const prefix = opts.prefix ?? 'howl:rl';
  let window = Math.floor(now() / durationMs);
  // All keys share the window, so a new window is a new map: old counts go without sweeping.
  let counts = new Map<string, Count>();
  // The keys with hits not yet sent, so a sync does not walk every key.
  let unsentKeys = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let syncing: Promise<void> | undefined;
  let closed = false;

  const currentCounts = (at: number) => {
    const w = Math.floor(at / durationMs);
    if (w !== window) {
      window = w;
      counts = new Map();
      unsentKeys = new Set();
    }
    return counts;
  };

  const schedule = () => {
    if (!opts.redis || timer || syncing || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      void sync();
    }, syncMs);
    timer.unref();
  };

  const sync = async (): Promise<void> => {
    const redis = opts.redis;
    if (!redis || syncing) return syncing;
    const at = now();
    const current = currentCounts(at);
    const sentWindow = window;
    const batch = [...unsentKeys].map((key) => [key, current.get(key)!] as const);
    unsentKeys.clear();
    if (batch.length === 0) return;
    const pipeline = redis.pipeline();
    // Kept a window past its end, so a process whose clock lags still finds it.
    const ttlMs = (sentWindow + 2) * durationMs - at;
    for (const [key, c] of batch) {
      c.sending = c.unsent;
      c.unsent = 0;
      const redisKey = `${prefix}:{${opts.name}:w${sentWindow}}:${key}`;
      pipeline.incrby(redisKey, c.sending).pexpire(redisKey, ttlMs);
    }
    syncing = (async () => {
      const answers = await withTimeout(pipeline.exec(), SYNC_TIMEOUT_MS).catch((err: unknown) => {
        onError(err);
        return null;
      });
      batch.forEach(([key, c], i) => {
        const [err, total] = answers?.[i * 2] ?? [new Error('no answer')];
        if (err || typeof total !== 'number') {
          c.unsent += c.sending;
          if (sentWindow === window) unsentKeys.add(key);
        } else {
          c.known = Math.max(c.known, total);
        }
        c.sending = 0;
      });
      if (answers?.some(([err]) => err)) onError(answers.find(([err]) => err)![0]);
    })().finally(() => {
      syncing = undefined;
      if (unsentKeys.size > 0) schedule();
    });
    return syncing;
  };

  return {
    take(key) {
      const at = now();
      const current = currentCounts(at);
      let c = current.get(key);
      if (!c) {
        c = { known: 0, sending: 0, unsent: 0 };
        current.set(key, c);
      }
      if (c.known + c.sending + c.unsent >= opts.points) return (window + 1) * durationMs - at;
      c.unsent++;
      unsentKeys.add(key);
      schedule();
      return undefined;
    },
    async flush() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      await syncing;
      await sync();
    },
    async close() {
      closed = true;
      await this.flush();
    },
  };
}
