import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../../lib/redis.js';
import type { CompiledQuery, Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { behindRedis } from '../../lib/redis-outages.js';
import { shownOf } from './entry-table.js';
import { periodColumns, rowsThrough } from './load-chunks.js';
import { notBuiltAnswers, type Rebuilding } from './rebuild-wait.js';
import { encode, keyOfMember, loadArgs, shownOfMember, storedMember } from './redis-members.js';
import { SCRIPTS, scriptKeys, type Scripts } from './redis-scripts.js';
import { followsTies, type OrderKey } from './order.js';
import {
  aroundByParts,
  LOAD_RETRY_MS,
  REBUILD_WAIT_MS,
  shownOnly,
  sqlRankIndex,
  storedIn,
  withReadRows,
  type BoardPeriod,
  type IndexedEntry,
  type RankIndex,
  type ShownRow,
} from './rank-index.js';

const SORTS = ['asc', 'desc'] as const;
const otherSort = (sort: BoardPeriod['sort']) => (sort === 'asc' ? 'desc' : 'asc');

/** How long a removed id is remembered: longer than a notice can take to arrive, or a rebuild to run. */
const REMEMBER_REMOVED_MS = 300_000;
/** How long a rebuild's lock lasts unless renewed (each chunk renews it). */
const REBUILD_LOCK_MS = 120_000;
/** Entries a rebuild reads from the database at a time. */
const LOAD_CHUNK = 10_000;
/** Entries per script call of a rebuild: Redis runs each call alone, so it stays short (a few ms). */
const LOAD_CALL = 1_000;
/** How long a period is kept after it ends (the one before is still asked about for a while). */
const KEEP_ENDED_MS = 86_400_000;

export interface RedisIndexOptions {
  /** How long a count waits for a load under way before SQL answers it (tests make it short). */
  loadWaitMs?: number;
  /** Key prefix, so test runs and deployments sharing a Redis stay apart. */
  prefix?: string;
  /** Hears a notice that could not reach Redis (the board is then forgotten, to be rebuilt), or a rebuild that failed. */
  onError?: (err: unknown) => void;
  /** Entries a rebuild reads from the database at a time (tests make it small). */
  chunk?: number;
  /** Runs a query answering rows as arrays (the database's `rows`): a rebuild then makes no object per row. */
  rows?: (query: CompiledQuery) => Promise<unknown[][]>;
}

/**
 * The rank index for several server processes: one Redis sorted set per board period, kept in
 * step by every process's writes and rebuilt from the database by whichever process first needs
 * it (under a lock). Until it is ready, SQL answers pages and aboves. A count or an around, while
 * this process rebuilds, asks SQL at once if no other call waits and a place is free (a lone
 * player's call costs a count, not a rebuild), else waits for the rebuild; otherwise SQL answers,
 * a few at a time (rebuild-wait.ts).
 * The position of a value is one ZCOUNT, and every other question one script call: one round trip.
 */
export function redisRankIndex(
  db: Kysely<DB>,
  redis: RedisClient,
  options: RedisIndexOptions = {},
): RankIndex & { settled(): Promise<void> } {
  const sql = sqlRankIndex(db);
  const readRows = options.rows ?? rowsThrough(db);
  const chunk = options.chunk ?? LOAD_CHUNK;
  const perCall = Math.min(chunk, LOAD_CALL);
  const prefix = options.prefix ?? 'howl:rank';
  const loadWaitMs = options.loadWaitMs ?? REBUILD_WAIT_MS;
  for (const [name, lua] of Object.entries(SCRIPTS)) {
    if (!(name in redis)) redis.defineCommand(name, { numberOfKeys: scriptKeys(name), lua });
  }
  const run = redis as unknown as Scripts;
  // The hash tag keeps a board's keys in one slot: its scripts and pipelines run on one node of a Redis Cluster.
  const boardKey = (boardId: string) => `${prefix}:{${boardId}}`;
  // Writes under way, by board: what a killed process leaves behind for `reconcile`.
  const underWay = `${prefix}:writing`;
  // Each sort has keys of its own, so a set built for the other order (a rebuild racing a change of sort) is never read.
  const keys = (boardId: string, periodStart: number, sort: BoardPeriod['sort']) => {
    const base = `${boardKey(boardId)}:${periodStart}:${sort}`;
    return [`${base}:z`, `${base}:rev`, `${base}:gone`, `${base}:building`, `${base}:z+`, `${base}:rev+`];
  };
  const generationKey = (boardId: string) => `${boardKey(boardId)}:gen`;
  const resetsKey = (boardId: string) => `${boardKey(boardId)}:resets`;
  // Periods with keys, scored by when they may go: what a reset deletes.
  const periodsKey = (boardId: string) => `${boardKey(boardId)}:periods`;
  const periodKeys = (board: BoardPeriod) => [
    ...keys(board.boardId, board.periodStart, board.sort),
    generationKey(board.boardId),
  ];
  // This process's rebuild of a period, by its set's key, while it runs, and how many calls wait for it.
  const rebuilding = new Map<string, Rebuilding>();
  const notBuilt = notBuiltAnswers(loadWaitMs);
  const whileNotBuilt = <T>(
    board: BoardPeriod,
    fromRedis: () => Promise<T | null | undefined>,
    fromSql: () => Promise<T>,
  ) => notBuilt(rebuilding.get(periodKeys(board)[0]!), fromRedis, fromSql);

  // When each board period's last rebuild failed: reads do not start another before LOAD_RETRY_MS.
  const failedAt = new Map<string, number>();

  function startRebuild(board: BoardPeriod): void {
    const key = periodKeys(board)[0]!;
    // This process's rebuild of it is under way, unless it has outlived its lock (stalled).
    if (Date.now() - (rebuilding.get(key)?.started ?? -Infinity) < REBUILD_LOCK_MS) return;
    const failed = failedAt.get(key);
    if (failed !== undefined && Date.now() - failed < LOAD_RETRY_MS) return; // SQL keeps answering
    const load = rebuild(board)
      .then(
        () => void failedAt.delete(key),
        (err: unknown) => {
          // A read after the pause tries again; meanwhile SQL answers, and no read starts a rebuild that would fail alike.
          failedAt.set(key, Date.now());
          options.onError?.(err);
        },
      )
      .finally(() => {
        if (rebuilding.get(key)?.load === load) rebuilding.delete(key);
      });
    rebuilding.set(key, { load, started: Date.now(), waiters: 0 });
  }

  /** One ZCOUNT: the live set is only ever complete, its marker at -inf, so 0 means no set yet. */
  async function valueRank(board: BoardPeriod, score: number): Promise<number | 'unusable'> {
    if (!outages.usable(board.boardId)) return 'unusable';
    const z = board.sort === 'desc' ? -score : score;
    const count = await redis.zcount(periodKeys(board)[0]!, '-inf', String(z === 0 ? 0 : z)).catch(() => undefined);
    return count ?? 'unusable';
  }

  /** `key`'s rank: null while the set is not built (a rebuild is then started), undefined while Redis is out of reach. */
  async function rankOf(board: BoardPeriod, key: OrderKey): Promise<number | null | undefined> {
    if (!followsTies(key)) {
      const answer = await ask(board, key, 0, 'after');
      return answer && answer.rank;
    }
    const count = await valueRank(board, key.score);
    if (count === 'unusable') return undefined;
    if (count > 0) return count - 1;
    startRebuild(board);
    return null;
  }

  /** An around from the answer of `ask` (both sides at once: one query at most, for rows with metadata). */
  async function aroundOf(board: BoardPeriod, answer: { rank: number; members: string[]; above: string[] }) {
    const rows = await rowsOf(board, [...answer.above, ...answer.members]);
    const aboveCount = answer.above.length / 2;
    return {
      countAbove: answer.rank,
      above: shownOnly(rows.slice(0, aboveCount).reverse()),
      below: shownOnly(rows.slice(aboveCount)),
    };
  }

  async function rebuild(board: BoardPeriod): Promise<void> {
    const k = periodKeys(board);
    const [, , , building, next, nextRevisions] = k as [string, string, string, string, string, string, string];
    // One process rebuilds; the others answer from SQL until it is done.
    // A token of its own: a rebuild that outlives its lock (renewed each chunk) cannot put in place
    // a set another rebuild has started over, nor let go of that rebuild's lock.
    const token = randomUUID();
    if ((await redis.set(building, token, 'PX', REBUILD_LOCK_MS, 'NX')) !== 'OK') return;
    try {
      const resets = (await redis.get(resetsKey(board.boardId))) ?? '0';
      await redis.del(next, nextRevisions);
      const ttl = board.periodEnd === undefined ? 0 : Math.max(board.periodEnd - Date.now(), 0) + KEEP_ENDED_MS;
      await redis.zadd(
        periodsKey(board.boardId),
        ttl === 0 ? '+inf' : String(Date.now() + ttl),
        String(board.periodStart),
      );
      await fill(board, k, token);
      await run.howlReady(...k, resetsKey(board.boardId), resets, String(ttl), token);
    } finally {
      await run.howlUnlock(...k, token);
    }
  }

  /** Reads a period a chunk at a time into the rebuild's set and hash, a thousand entries a script call; one chunk's calls in flight while the next is read. */
  async function fill(board: BoardPeriod, k: string[], token: string): Promise<void> {
    let sent: Promise<unknown> = Promise.resolve();
    for await (const columns of periodColumns(db, board, chunk, readRows)) {
      const batch = redis.pipeline() as unknown as Scripts & {
        exec(): Promise<Array<[Error | null, unknown]> | null>;
      };
      for (let start = 0; start < columns[0].length; start += perCall) {
        const args = loadArgs(columns, start, Math.min(start + perCall, columns[0].length), board.sort);
        void batch.howlLoad(...k, token, String(REBUILD_LOCK_MS), ...args);
      }
      // One chunk's calls in flight while the next is read and encoded.
      await sent;
      // A pipeline answers each call's error beside the others' results: any one fails the rebuild,
      // which then never puts an incomplete set in place.
      sent = batch.exec().then((results) => {
        const failed = results?.find(([err]) => err);
        if (failed) throw failed[0];
      });
      sent.catch(() => undefined); // heard at the next chunk or after the last
    }
    await sent;
  }

  /**
   * One round trip: the rank of `key` and, optionally, `limit` members after or above it, as
   * [member, z] pairs flattened. Null while the set is not built, undefined while Redis is out of reach.
   */
  async function ask(
    board: BoardPeriod,
    key: OrderKey | undefined,
    limit: number,
    direction: 'after' | 'above' | 'both',
  ): Promise<{ rank: number; members: string[]; above: string[] } | null | undefined> {
    if (!outages.usable(board.boardId)) return undefined;
    const { z, member } = key ? encode(key, board.sort) : { z: '0', member: '' };
    const answer = (await run
      .howlRank(
        ...periodKeys(board),
        z,
        member,
        String(limit),
        direction,
        key && followsTies(key) ? '1' : '0',
        key?.id ?? '',
      )
      .catch(() => undefined)) as number | [number, string[]?, string[]?] | undefined;
    if (answer === undefined) return undefined; // Redis went away meanwhile: SQL answers
    if (answer === -1) {
      startRebuild(board);
      return null;
    }
    const [rank, members = [], above = []] = answer as [number, string[]?, string[]?];
    return { rank, members, above };
  }

  /** The rows of [member, z, …] pairs in the order given (`reverse`: the other way), reading only those with metadata. */
  const rowsOf = (board: BoardPeriod, pairs: string[], reverse = false) => {
    const rows: Array<ShownRow | string> = [];
    for (let i = 0; i < pairs.length; i += 2) rows.push(shownOfMember(board, pairs[i]!, pairs[i + 1]!));
    return withReadRows(db, reverse ? rows.reverse() : rows);
  };

  /** Forgets a board's sets (they are rebuilt when next asked for); a rebuild under way will not be put in place. */
  async function forget(boardId: string): Promise<void> {
    await redis.incr(resetsKey(boardId));
    const periods = await redis.zrange(periodsKey(boardId), 0, -1);
    const doomed = periods.flatMap((p) =>
      SORTS.flatMap((sort) => {
        const [z, revisions, , , next, nextRevisions] = keys(boardId, Number(p), sort);
        return [z!, revisions!, next!, nextRevisions!];
      }),
    );
    for (let i = 0; i < doomed.length; i += 500) await redis.del(...doomed.slice(i, i + 500));
    await redis.del(periodsKey(boardId));
  }

  // Boards whose sets missed a notice while Redis was away: SQL answers for them until they are forgotten.
  const outages = behindRedis(redis, forget);

  /** A notice that did not reach Redis leaves the set behind the database: forget the board instead. */
  async function notify(boardId: string, send: () => Promise<unknown>): Promise<void> {
    // Unreachable: no waiting on reconnection attempts; the board is forgotten once Redis is back.
    if (!outages.reachable()) return outages.mark(boardId);
    try {
      await send();
    } catch (err) {
      options.onError?.(err);
      await forget(boardId).catch(() => outages.mark(boardId));
    }
  }

  return {
    async page(board, after, limit) {
      if (limit <= 0) return [];
      const answer = await ask(board, after, limit, 'after');
      return answer ? shownOnly(await rowsOf(board, answer.members)) : sql.page(board, after, limit);
    },
    async above(board, key, limit) {
      if (limit <= 0) return [];
      const answer = await ask(board, key, limit, 'above');
      return answer ? shownOnly(await rowsOf(board, answer.members, true)) : sql.above(board, key, limit);
    },
    async countAbove(board, key) {
      const rank = await rankOf(board, key);
      if (rank === undefined) return sql.countAbove(board, key);
      if (rank !== null) return rank;
      return whileNotBuilt(
        board,
        () => rankOf(board, key),
        () => sql.countAbove(board, key),
      );
    },
    async around(board, key, count) {
      const answer = await ask(board, key, count, 'both');
      if (answer) return aroundOf(board, answer);
      const fromSql = () => aroundByParts(sql, board, key, count);
      if (answer === undefined) return fromSql();
      return whileNotBuilt(
        board,
        async () => {
          const again = await ask(board, key, count, 'both');
          return again && aroundOf(board, again);
        },
        fromSql,
      );
    },
    // The entry's member, read back from the period's hash: one round trip to Redis instead of one to the database (a miss pays both).
    async keyOf(board, id) {
      if (!outages.usable(board.boardId)) return undefined;
      const held = (await run.howlKeyOf(...periodKeys(board), id).catch(() => undefined)) as
        [string, string] | null | undefined;
      return held ? keyOfMember(board.sort, held[0], held[1]) : undefined;
    },
    async saved(board, entry: IndexedEntry) {
      const save = async (e: IndexedEntry, removal = '') => {
        const { z } = encode(e, board.sort);
        const member = storedMember(e, board.sort, shownOf(e));
        const args = [e.id, String(e.revision), z, member, String(board.generation), '0', removal] as const;
        const otherGone = keys(board.boardId, board.periodStart, otherSort(board.sort))[2]!;
        return (await run.howlSave(...periodKeys(board), otherGone, ...args)) as number | string;
      };
      await notify(board.boardId, async () => {
        const removal = await save(entry);
        if (typeof removal !== 'string') return;
        // A removed id: a late notice, unless the database holds it again (recent-removals.ts savedAgain).
        const row = await storedIn(db, board, entry.id);
        if (!row) return;
        if ((await save(row, removal)) !== -1) return;
        // Another notice of the id saved it again first: what the database holds now, as any save.
        const fresh = await storedIn(db, board, entry.id);
        if (fresh) await save(fresh);
      });
    },
    async removed(boardId, entries) {
      const now = Date.now();
      for (const e of entries) {
        for (const sort of SORTS) {
          await notify(boardId, () =>
            run.howlRemove(
              ...keys(boardId, e.period_start, sort),
              generationKey(boardId),
              e.id,
              String(now),
              String(now - REMEMBER_REMOVED_MS),
              String(REMEMBER_REMOVED_MS),
            ),
          );
        }
      }
    },
    async reset(boardId, generation) {
      try {
        if (generation === null) {
          await forget(boardId);
          await redis.del(generationKey(boardId), resetsKey(boardId));
          return;
        }
        // Notices made under an older generation are dropped from now on.
        await redis.eval(
          "if tonumber(redis.call('GET', KEYS[1]) or '-1') < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end",
          1,
          generationKey(boardId),
          String(generation),
        );
        await forget(boardId);
      } catch (err) {
        // The change is in the database already: the board is forgotten once Redis is back.
        options.onError?.(err);
        outages.mark(boardId);
      }
    },
    async track(boardIds, write) {
      const marks = boardIds.map((id) => `${id}\u0000${randomUUID()}`);
      const marked =
        marks.length > 0 &&
        outages.reachable() &&
        (await redis.zadd(underWay, ...marks.flatMap((m) => [String(Date.now()), m])).then(
          () => true,
          () => false,
        ));
      // Unmarked, a write cut off halfway would escape `reconcile`: its boards are forgotten once Redis is back instead.
      if (!marked) for (const id of boardIds) outages.mark(id);
      try {
        return await write();
      } finally {
        if (marked) redis.zrem(underWay, ...marks).catch(() => undefined);
      }
    },
    async reconcile() {
      // Another live process's write may be among these: forgetting its board costs a rebuild, nothing more.
      const marks = await redis.zrange(underWay, 0, -1);
      const boards = new Set(marks.map((m) => m.slice(0, m.indexOf('\u0000'))));
      for (const boardId of boards) await forget(boardId);
      await redis.zremrangebyscore(underWay, '-inf', String(Date.now() - 60_000));
      return boards.size;
    },
    async settled() {
      while (rebuilding.size > 0) await Promise.all([...rebuilding.values()].map((r) => r.load));
    },
  };
}
