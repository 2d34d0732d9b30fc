import { randomUUID } from 'node:crypto';
import { Cluster, type Redis } from 'ioredis';
import type { RedisClient } from './redis.js';
import { withTimeout } from './timeout.js';

/**
 * Rows read on every request (a game, a game's boards) kept in memory. The database stays the
 * truth: a miss reads it, and a write drops the key once its transaction has committed
 * (`invalidate`), here and, with Redis, in every other process at once.
 */
export interface Cache<V extends object> {
  /** The kept value, else `load()`'s (kept unless an invalidation overtook the load). Absence is never kept. */
  get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined>;
  /** The kept value if there is one now, without loading: lets a hot path skip a promise. */
  peek(key: string): V | undefined;
  /** Drops the key in this process only (a write found the kept value stale). */
  delete(key: string): void;
  /** Drops the key here and in every other process; call after the change has committed. */
  invalidate(key: string): Promise<void>;
  /** Drops every key in this process only (a change too wide to name its keys has committed). */
  clear(): void;
}

/** A bound on what a cache's values weigh together, beside its bound on keys. */
export interface CacheWeight<V> {
  max: number;
  of(value: V): number;
}

export interface Caches {
  /**
   * The cache of this name (one per name); at most `max` keys, and values weighing at most
   * `weight.max` together: the least recently used go first.
   */
  cache<V extends object>(name: string, max?: number, weight?: CacheWeight<V>): Cache<V>;
  /**
   * Resolves once every invalidation Redis delivered to this process before the call has been
   * applied here: a PING on the subscriber's connection is answered after the messages queued ahead of it.
   * On a Redis Cluster a PING goes to any node, so a marker is published and heard back instead; it
   * leaves the same master as the invalidations published before it, and travels behind them.
   */
  heard(): Promise<void>;
  /**
   * Notices of this name (one set of handlers per name): what a process keeps beside the caches
   * (a board's top rows) learns through them of changes made in other processes.
   */
  notices(name: string, handlers: NoticeHandlers): Notices;
  /** Stops listening to other processes. */
  close(): Promise<void>;
}

/** A notice of this key tells the other processes to drop everything they keep under its name. */
export const EVERY_KEY = '*';

/** Keys of notices kept while Redis cannot take them; past this, one notice of EVERY_KEY is sent instead. */
const MAX_PENDING_NOTICES = 10_000;

/** What a process does with other processes' notices of one name. */
export interface NoticeHandlers {
  /** Another process changed `key` (never EVERY_KEY: that one calls `lost`). */
  changed(key: string): void;
  /** Notices may have been lost (an outage of the subscriber, a cluster's nodes changing): drop everything kept. */
  lost(): void;
}

export interface Notices {
  /**
   * Tells every other process (not this one) that `key` changed; call after the change has
   * committed. While Redis cannot take it the notice waits, without holding up the caller, and is
   * sent once Redis is back.
   */
  send(key: string): Promise<void>;
  /** Whether other processes' notices reach this one now: while not, nothing read may be kept. */
  listening(): boolean;
}

export interface CachesOptions {
  /** Shared with the other processes: invalidations are published on it and heard on a duplicate. */
  redis?: RedisClient;
  /** The pub/sub channel (tests keep their runs apart with it). */
  channel?: string;
  onError?: (err: unknown) => void;
}

const DEFAULT_MAX = 10_000;
/** What an ioredis Cluster emits when a node fails or the nodes change. */
const CLUSTER_CHANGES = ['node error', '+node', '-node'] as const;
/** Longest wait for a marker to come back (a lost one only means `heard` resolves late). */
const MARKER_TIMEOUT_MS = 2_000;
/**
 * Without Redis no other process hears an invalidation; several processes on one database without
 * Redis are not a supported setup, but should one run, a kept row lives at most this long there.
 */
const LONE_PROCESS_TTL_MS = 5_000;

/** A load in flight; an invalidation of its key marks it, so what it read (maybe the old row) is not kept. */
interface Load<V> {
  overtaken: boolean;
  promise: Promise<V | undefined>;
}

/**
 * The process's caches. With Redis, `invalidate` publishes the key after dropping it and a
 * subscriber connection drops what others publish; while that subscriber is not listening (before
 * it first subscribes, during an outage) nothing is kept and every read goes to the database, and
 * on its return everything kept is dropped, since invalidations sent meanwhile were lost.
 */
export async function createCaches(opts: CachesOptions = {}): Promise<Caches> {
  const channel = opts.channel ?? 'howl:cache-invalidations';
  const onError = opts.onError ?? (() => {});
  const caches = new Map<string, LruCache<object>>();
  const subscriber = opts.redis?.duplicate();
  let listening = subscriber === undefined;
  // Markers `heard` published and waits for; they hold no newline, so no cache mistakes one for a key.
  const markers = new Map<string, () => void>();
  const noticeHandlers = new Map<string, NoticeHandlers>();
  // A notice names its sender, so that a process skips its own (it has applied the change itself).
  const self = randomUUID();

  const dropAll = () => {
    for (const c of caches.values()) c.clear();
    for (const handlers of noticeHandlers.values()) handlers.lost();
  };
  if (subscriber) {
    subscriber.on('message', (_channel: string, message: string) => {
      const cut = message.indexOf('\n');
      if (cut === -1) return markers.get(message)?.();
      const name = message.slice(0, cut);
      const handlers = noticeHandlers.get(name);
      if (!handlers) return caches.get(name)?.delete(message.slice(cut + 1));
      const from = message.indexOf('\n', cut + 1);
      if (from === -1 || message.slice(cut + 1, from) === self) return;
      const key = message.slice(from + 1);
      if (key === EVERY_KEY) handlers.lost();
      else handlers.changed(key);
    });
    // Its outages show on the main connection, which reports them (lib/redis-outages.ts); here they only stop keeping.
    subscriber.on('error', () => {});
    // A cluster moves its subscription to another node by itself, with no 'close': notices sent
    // meanwhile may be lost, so a failing node or a change of nodes drops everything kept.
    if (opts.redis?.isCluster) for (const event of CLUSTER_CHANGES) opts.redis.on(event, dropAll);
    await subscriber.subscribe(channel);
    listening = true;
    subscriber.on('close', () => {
      listening = false;
      dropAll();
    });
    subscriber.on('ready', () => {
      if (listening) return;
      subscriber.subscribe(channel).then(() => {
        dropAll();
        listening = true;
      }, onError);
    });
  }

  // A cluster forwards a notice from the node it was published on to the others, in order per pair
  // of nodes but not across them: every process publishes through one master, so a marker reaches a
  // subscriber after the invalidations published before it. (Nodes changing drop everything kept.)
  const publisher = (): RedisClient | undefined => {
    const redis = opts.redis;
    if (!redis || !(redis instanceof Cluster)) return redis;
    const at = (node: Redis) => `${node.options.host}:${node.options.port}`;
    return redis.nodes('master').sort((x, y) => at(x).localeCompare(at(y)))[0] ?? redis;
  };
  const publish = async (message: string) => {
    // The change has committed: a failed notice must not fail the request. Others' subscribers lose
    // their connection in an outage and then drop everything, so only a lone failure goes unheard.
    await publisher()?.publish(channel, message).catch(onError);
  };

  // Notices Redis could not take, by name: sent when it is back, so that no other process keeps
  // what this one changed meanwhile (without them, one that kept listening would never hear).
  const pending = new Map<string, Set<string>>();
  const sendNotice = async (name: string, key: string): Promise<void> => {
    const sent =
      opts.redis?.status === 'ready' &&
      (await publisher()!
        .publish(channel, `${name}\n${self}\n${key}`)
        .then(
          () => true,
          (err: unknown) => {
            onError(err);
            return false;
          },
        ));
    if (sent) return;
    let keys = pending.get(name);
    if (!keys) pending.set(name, (keys = new Set()));
    // Past the bound, one notice tells them to drop everything of the name.
    if (keys.size >= MAX_PENDING_NOTICES) {
      keys.clear();
      keys.add(EVERY_KEY);
    } else if (!keys.has(EVERY_KEY)) keys.add(key);
  };
  const sendPending = async () => {
    for (const [name, keys] of [...pending]) {
      pending.delete(name);
      for (const key of keys.has(EVERY_KEY) ? [EVERY_KEY] : keys) await sendNotice(name, key);
    }
  };
  const onReady = () => void sendPending();
  opts.redis?.on('ready', onReady);

  return {
    cache<V extends object>(name: string, max = DEFAULT_MAX, weight?: CacheWeight<V>): Cache<V> {
      let c = caches.get(name);
      if (!c) {
        if (noticeHandlers.has(name)) throw new Error(`"${name}" is taken`);
        c = new LruCache<object>(
          max,
          () => listening,
          (key) => publish(`${name}\n${key}`),
          opts.redis ? Number.POSITIVE_INFINITY : LONE_PROCESS_TTL_MS,
          weight as CacheWeight<object> | undefined,
        );
        caches.set(name, c);
      }
      return c as unknown as Cache<V>;
    },
    notices(name: string, handlers: NoticeHandlers): Notices {
      if (caches.has(name) || noticeHandlers.has(name)) throw new Error(`"${name}" is taken`);
      noticeHandlers.set(name, handlers);
      return {
        send: async (key) => {
          if (opts.redis) await sendNotice(name, key);
        },
        listening: () => listening,
      };
    },
    async heard() {
      if (!subscriber || !listening) return;
      if (!subscriber.isCluster) return void (await subscriber.ping().catch(() => {}));
      const marker = `heard:${randomUUID()}`;
      const back = new Promise<void>((resolve) => markers.set(marker, resolve));
      await publisher()!
        .publish(channel, marker)
        .then(() => withTimeout(back, MARKER_TIMEOUT_MS))
        .catch(() => {})
        .finally(() => markers.delete(marker));
    },
    async close() {
      opts.redis?.off('ready', onReady);
      if (subscriber) {
        listening = false;
        subscriber.removeAllListeners('close');
        subscriber.removeAllListeners('ready');
        for (const event of CLUSTER_CHANGES) opts.redis?.off(event, dropAll);
        await subscriber.quit().catch(() => subscriber.disconnect());
      }
    },
  };
}

/** For services built without caches (tests running two services on one database): every read loads. */
export const noCaches: Caches = {
  notices: () => ({ send: async () => {}, listening: () => true }),
  cache: <V extends object>(): Cache<V> => ({
    get: (_key, load) => load(),
    peek: () => undefined,
    delete: () => {},
    invalidate: async () => {},
    clear: () => {},
  }),
  heard: async () => {},
  close: async () => {},
};

class LruCache<V extends object> implements Cache<V> {
  private readonly entries = new Map<string, { value: V; keptAt: number; weight: number }>();
  private readonly loads = new Map<string, Load<V>>();
  private weight = 0;

  constructor(
    private readonly max: number,
    private readonly trusted: () => boolean,
    private readonly publish: (key: string) => Promise<void>,
    private readonly ttlMs: number,
    private readonly weighs?: CacheWeight<V>,
  ) {}

  peek(key: string): V | undefined {
    if (!this.trusted()) return undefined;
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    if (performance.now() - hit.keptAt >= this.ttlMs) {
      this.drop(key);
      return undefined;
    }
    // Most recently used last: eviction takes the first key. Below half full (in keys and in
    // weight) nothing is evicted soon, so the hot path skips the move; past half, a key in use moves.
    if (this.entries.size > this.max / 2 || (this.weighs !== undefined && this.weight > this.weighs.max / 2)) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit.value;
  }

  get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    if (!this.trusted()) return load();
    const hit = this.peek(key);
    if (hit !== undefined) return Promise.resolve(hit);
    const pending = this.loads.get(key);
    if (pending) return pending.promise;
    // The race this guards: a read of the old row is in flight when a change commits and its
    // invalidation runs; the invalidation marks the load overtaken, so the old row is answered to
    // the request that began before the change but never kept. Loads after it read the new row.
    const started: Load<V> = { overtaken: false, promise: Promise.resolve(undefined) };
    started.promise = load().then(
      (value) => {
        if (this.loads.get(key) === started) this.loads.delete(key);
        if (value !== undefined && !started.overtaken && this.trusted()) this.keep(key, Object.freeze(value));
        return value;
      },
      (err: unknown) => {
        if (this.loads.get(key) === started) this.loads.delete(key);
        throw err;
      },
    );
    this.loads.set(key, started);
    return started.promise;
  }

  delete(key: string): void {
    this.drop(key);
    const pending = this.loads.get(key);
    if (pending) {
      pending.overtaken = true;
      this.loads.delete(key);
    }
  }

  async invalidate(key: string): Promise<void> {
    this.delete(key);
    await this.publish(key);
  }

  clear(): void {
    for (const key of [...this.entries.keys(), ...this.loads.keys()]) this.delete(key);
  }

  private keep(key: string, value: V): void {
    const weight = this.weighs?.of(value) ?? 0;
    this.drop(key);
    if (this.weighs && weight > this.weighs.max) return;
    this.entries.set(key, { value, keptAt: performance.now(), weight });
    this.weight += weight;
    while (this.entries.size > this.max || (this.weighs && this.weight > this.weighs.max)) {
      this.drop(this.entries.keys().next().value!);
    }
  }

  private drop(key: string): void {
    const hit = this.entries.get(key);
    if (hit === undefined) return;
    this.entries.delete(key);
    this.weight -= hit.weight;
  }
}
