import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { CompiledQuery, Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { openSqliteFile, openTestDatabase } from '../../../test/support/database.js';
import { insertBoardRow, insertBoardRows } from '../../../test/support/rank-indexes.js';
import { DIALECTS, REDIS_SKIP, services } from '../../../test/support/services.js';
import { lastOfJson, loadChunks } from './load-chunks.js';
import { memoryRankIndex } from './memory-index.js';
import { sqlRankIndex } from './rank-index.js';
import { redisRankIndex } from './redis-index.js';

// Names a JSON array must carry exactly: quotes, backslashes, separators, control characters, other scripts.
const NAMES = [
  'plain',
  'a","b',
  'back\\slash\\',
  'quote"',
  '\\',
  'tab\tnew\nline',
  '\u0001bell',
  'wolf 🐺',
  '日本',
  '',
];
// Scores a JSON number must carry exactly, with ties so that timestamp, name and id decide.
const SCORES = [0.1 + 0.2, 0.3, -0, 1e300, -1e-300, 5e-324, 42, 42, 42, -17.5, 2 ** 52 + 1, Number.MIN_SAFE_INTEGER];
const TIMESTAMPS = [1, 1, Number.MAX_SAFE_INTEGER - 1, 1_795_749_577_026];
const ENTRIES = 240;

/** `ENTRIES` entries on a board: both kinds of id, every score and timestamp, ties, names from `names`. */
async function insertEntries(db: Kysely<DB>, boardId: string, names: string[], first = 0) {
  await db
    .insertInto('scores')
    .values(
      Array.from({ length: ENTRIES }, (_, i) => ({
        // Canonical UUIDs pack into 16 bytes, other ids stay text: both kinds, interleaved.
        id:
          i % 3
            ? `00000000-0000-4000-8000-${String(first + i).padStart(12, '0')}`
            : `id-${first + i}-${names[i % names.length]}`,
        leaderboard_id: boardId,
        period_start: 0,
        player_name: `${names[i % names.length]}${i % 7}`,
        player_key: `player-${i}`,
        score: SCORES[i % SCORES.length]!,
        timestamp: TIMESTAMPS[i % TIMESTAMPS.length]!,
        metadata: i % 5 === 0 ? '{"level":3}' : null,
        engine: i % 4 === 0 ? null : i % 2 ? 3 : 4,
        revision: i % 9,
      })),
    )
    .execute();
}

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: an index loads every value exactly, a chunk at a time`, () => {
    let database: Database & { close(): Promise<void> };
    const queries: string[] = [];
    const board = { boardId: 'board', periodStart: 0, sort: 'desc' as const, generation: 0 };
    beforeAll(async () => {
      if (dialect === 'sqlite') {
        // A file, as the server runs: its loads read in a thread of their own.
        database = await openSqliteFile({ onQuery: (text) => queries.push(text) });
      } else {
        database = await openTestDatabase(dialect, { onQuery: (text) => queries.push(text) });
      }
      await insertBoardRows(database.db, 'board');
      await insertEntries(database.db, 'board', NAMES);
      // What a player can be called: a single line, which a Redis member's separators rely on.
      await insertBoardRow(database.db, 'plain', 'na');
      await insertEntries(
        database.db,
        'plain',
        NAMES.filter((name) => [...name].every((c) => c >= ' ')),
        ENTRIES,
      );
    });
    afterAll(() => database?.close());

    it('holds the same entries in the same order as SQL answers, across chunk boundaries that split ties', async () => {
      queries.length = 0;
      const index = memoryRankIndex(database.db, { chunk: 7, rows: database.rows });
      const sql = sqlRankIndex(database.db);
      await index.countAbove(board, { score: 0, timestamp: 0, player_name: '', id: '' }); // starts the load
      await index.settled();
      expect(index.entries()).toBe(ENTRIES);
      const loaded = await index.page(board, undefined, ENTRIES);
      const expected = await sql.page(board, undefined, ENTRIES);
      expect(loaded).toEqual(expected);
      for (const [i, row] of expected.entries()) expect(await index.countAbove(board, row)).toBe(i);
      // A chunk comes as JSON arrays, one per column, each database with its own aggregate.
      const chunks = queries.filter((q) => q.includes('"has_metadata"'));
      expect(chunks.length).toBe(Math.ceil(ENTRIES / 7));
      const aggregate = dialect === 'sqlite' ? 'json_group_array(' : 'json_agg(';
      expect(chunks.every((q) => q.includes(aggregate))).toBe(true);
    });

    it.skipIf(REDIS_SKIP)(
      'rebuilds a Redis index with the same entries in the same order, a chunk at a time',
      async () => {
        const redis = new Redis(services.redisUrl!);
        const plain = { ...board, boardId: 'plain' };
        try {
          const expected = await sqlRankIndex(database.db).page(plain, undefined, ENTRIES);
          // Chunks of 7 from the database, each one script call; then chunks of 10,000 in calls of 1,000.
          for (const chunk of [7, undefined]) {
            const prefix = `howl-test:${randomUUID()}`;
            const index = redisRankIndex(database.db, redis, { prefix, rows: database.rows, chunk });
            await index.countAbove(plain, { score: 0, timestamp: 0, player_name: '', id: '' }); // starts the rebuild
            await index.settled();
            expect(await index.page(plain, undefined, ENTRIES)).toEqual(expected);
            for (const [i, row] of expected.entries()) expect(await index.countAbove(plain, row)).toBe(i);
            await index.reset(plain.boardId, 0);
          }
        } finally {
          await redis.quit();
        }
      },
    );

    it.skipIf(REDIS_SKIP)(
      'reports a Redis rebuild that fails, and leaves the board to SQL for a while rather than start another',
      async () => {
        const redis = new Redis(services.redisUrl!);
        try {
          const errors: unknown[] = [];
          let reads = 0;
          const failing = async () => {
            reads++;
            throw new Error('the database went away');
          };
          const prefix = `howl-test:${randomUUID()}`;
          const index = redisRankIndex(database.db, redis, { prefix, rows: failing, onError: (e) => errors.push(e) });
          const key = { score: 0, timestamp: 0, player_name: '', id: '' };
          const expected = await sqlRankIndex(database.db).countAbove(board, key);
          for (let i = 0; i < 3; i++) {
            expect(await index.countAbove(board, key)).toBe(expected); // SQL, each time
            await index.settled();
          }
          expect(reads).toBe(1);
          expect(errors.map((e) => (e as Error).message)).toEqual(['the database went away']);
        } finally {
          await redis.quit();
        }
      },
    );

    it.skipIf(REDIS_SKIP)(
      "asks SQL for a lone count, waits for its own Redis rebuild under load, and counts SQL two at a time during another process's",
      async () => {
        const redis = new Redis(services.redisUrl!);
        const plain = { ...board, boardId: 'plain' };
        // SQL's count of the entries above a key, as Kysely runs it: how many run at once, and at most.
        let counting = 0;
        let most = 0;
        let counts = 0;
        // How long each count takes at least: a count that returns at once frees its place before the next call comes.
        let countMs = 0;
        const isCount = (node: { kind: string; selections?: unknown }) =>
          node.kind === 'SelectQueryNode' && JSON.stringify(node.selections).includes('"n"');
        const tracked = database.db.withPlugin({
          transformQuery({ node }) {
            if (isCount(node as never)) {
              counts++;
              most = Math.max(most, ++counting);
            }
            return node;
          },
          async transformResult({ result }) {
            if (result.rows[0] && 'n' in (result.rows[0] as object)) {
              await new Promise((resolve) => setTimeout(resolve, countMs));
              counting--;
            }
            return result;
          },
        });
        try {
          const sql = sqlRankIndex(database.db);
          const rows = await sql.page(plain, undefined, ENTRIES);
          const value = { score: 0.3, timestamp: Number.MAX_SAFE_INTEGER, player_name: '\u{10FFFF}', id: '\u{10FFFF}' };
          const expected = [await sql.countAbove(plain, value), 5, await sql.around(plain, rows[10]!, 2)];

          // This process rebuilds: asked together before the set is built, the first two ask SQL at
          // once (no one waits yet), and the rest wait for the rebuild and answer from Redis.
          countMs = 100; // the first two still count when the rest come
          const own = redisRankIndex(tracked, redis, {
            prefix: `howl-test:${randomUUID()}`,
            rows: database.rows,
            chunk: 7,
          });
          const answers = await Promise.all([
            own.countAbove(plain, value),
            own.countAbove(plain, rows[5]!),
            own.around(plain, rows[10]!, 2),
            own.countAbove(plain, value),
            own.countAbove(plain, rows[5]!),
            own.around(plain, rows[10]!, 2),
          ]);
          expect(answers).toEqual([...expected, ...expected]);
          expect(counts).toBe(2);

          // Another process holds the rebuild's lock: SQL answers, never more than two counts at once.
          counts = 0;
          most = 0;
          const prefix = `howl-test:${randomUUID()}`;
          await redis.set(`${prefix}:{plain}:0:desc:building`, 'another process', 'PX', 60_000);
          const other = redisRankIndex(tracked, redis, { prefix, rows: database.rows });
          const keys = rows.slice(0, 12);
          expect(await Promise.all(keys.map((row) => other.countAbove(plain, row)))).toEqual(keys.map((_, i) => i));
          expect(counts).toBe(12);
          expect(most).toBe(2);

          // This process's rebuild hangs. A count alone asks SQL at once; of three at once, two do,
          // and the third waits loadWaitMs for the rebuild before SQL answers it.
          const stalledPrefix = `howl-test:${randomUUID()}`;
          const stalled = redisRankIndex(tracked, redis, {
            prefix: stalledPrefix,
            rows: () => new Promise<never>(() => {}),
            loadWaitMs: 1000,
          });
          const timed = async (row: (typeof rows)[number]) => {
            const t = performance.now();
            const n = await stalled.countAbove(plain, row);
            return { n, ms: performance.now() - t };
          };
          const alone = await timed(rows[5]!);
          expect(alone.n).toBe(5);
          expect(alone.ms).toBeLessThan(700);
          const three = await Promise.all([timed(rows[1]!), timed(rows[2]!), timed(rows[3]!)]);
          expect(three.map((a) => a.n)).toEqual([1, 2, 3]);
          expect(three[0]!.ms).toBeLessThan(700);
          expect(three[1]!.ms).toBeLessThan(700);
          expect(three[2]!.ms).toBeGreaterThanOrEqual(950);
          expect(counts).toBe(16);
          await redis.del(`${prefix}:{plain}:0:desc:building`, `${stalledPrefix}:{plain}:0:desc:building`);
          await own.reset(plain.boardId, 0);
        } finally {
          await redis.quit();
        }
      },
    );

    it('ends equal to SQL when entries are saved, moved and removed while it loads', async () => {
      const busy = { ...board, boardId: 'busy' };
      await insertBoardRow(database.db, 'busy', 'na');
      const row = (i: number, score: number, revision: number) => ({
        id: `busy-${i}`,
        score,
        timestamp: 1000 + i,
        player_name: `player ${i}`,
        revision,
      });
      const stored = (r: ReturnType<typeof row>) => ({
        ...r,
        leaderboard_id: 'busy',
        period_start: 0,
        player_key: r.id,
        metadata: null,
        engine: null,
      });
      await database.db
        .insertInto('scores')
        .values(Array.from({ length: 500 }, (_, i) => stored(row(i, i % 97, 0))))
        .execute();
      // Each chunk 2 ms late, so the load spans the writes on every database.
      const rows = async (query: CompiledQuery) => (await sleep(2), database.rows(query));
      const index = memoryRankIndex(database.db, { chunk: 7, rows });
      await index.countAbove(busy, row(0, 0, 0)); // starts the load
      // Each write commits, then tells the index, as the service does, while the load runs.
      const writes = Array.from({ length: 120 }, async (_, k) => {
        await sleep(20 + k); // spread over the load, after its thread has started
        const i = (k * 37) % 620;
        if (k % 5 === 4 && i < 500) {
          const gone = await database.db.deleteFrom('scores').where('id', '=', `busy-${i}`).returningAll().execute();
          if (gone.length > 0) await index.removed('busy', gone);
        } else if (i >= 500) {
          await database.db
            .insertInto('scores')
            .values(stored(row(i, k, 0)))
            .onConflict((oc) => oc.doNothing())
            .execute();
          await index.saved(busy, row(i, k, 0));
        } else {
          const moved = await database.db
            .updateTable('scores')
            .set((eb) => ({ score: k % 2 ? 200 + k : -1 - k, revision: eb('revision', '+', 1) }))
            .where('id', '=', `busy-${i}`)
            .returningAll()
            .execute();
          if (moved[0]) await index.saved(busy, moved[0]);
        }
      });
      await Promise.all(writes);
      await index.settled();
      const expected = await sqlRankIndex(database.db).page(busy, undefined, 1000);
      expect(index.entries()).toBe(expected.length);
      expect(await index.page(busy, undefined, 1000)).toEqual(expected);
    });
  });
}

describe("a chunk's last key, read from the end of its JSON arrays", () => {
  it('is each name and score exactly, escapes and all, and nothing for an empty array', () => {
    for (const value of [...NAMES, ...SCORES, ...TIMESTAMPS, '"', '\\"', 'a\\', ',"', '[', ']']) {
      // As JSON carries it (-0 becomes 0).
      const carried = JSON.parse(JSON.stringify(value)) as unknown;
      expect(lastOfJson(JSON.stringify(['before', value]))).toEqual(carried);
      expect(lastOfJson(JSON.stringify([value]))).toEqual(carried);
    }
    // SQLite's own forms, which JSON.stringify never writes.
    expect(lastOfJson('["a",1.0e+300]')).toBe(1e300);
    expect(Object.is(lastOfJson('[1,-0.0]'), -0)).toBe(true);
    expect(lastOfJson('["a","\\u001f\\"x"]')).toBe('\u001f"x');
    expect(lastOfJson('[]')).toBeUndefined();
    // PostgreSQL's json_agg separates elements with a space too.
    expect(lastOfJson('[1, 1e+300]')).toBe(1e300);
    expect(lastOfJson('["a", "b\\\\"]')).toBe('b\\');
    expect(lastOfJson('["a", "c, \\"d\\""]')).toBe('c, "d"');
    expect(lastOfJson('[true, null]')).toBeNull();
  });
});

for (const { dialect, skip } of DIALECTS)
  describe.skipIf(skip)(`${dialect}: a chunk out of order is refused`, () => {
    let database: Awaited<ReturnType<typeof openTestDatabase>>;
    const board = { boardId: 'board', periodStart: 0, sort: 'desc' as const, generation: 0 };
    beforeAll(async () => {
      database = await openTestDatabase(dialect);
      await insertBoardRows(database.db, 'board');
    });
    afterAll(() => database?.close());

    /** Answers a chunk query with these columns, as the database's JSON arrays would carry them, and their size. */
    const answering = (columns: unknown[][]) => async () => [
      [...columns.map((c) => JSON.stringify(c)), columns[0]!.length],
    ];
    const chunk = (names: string[], ids: string[]) => [
      ids,
      ids.map(() => 7),
      ids.map(() => 1),
      names,
      ids.map(() => 0),
      ids.map(() => null),
      ids.map(() => 0),
    ];

    it('checks ties on score and time by name, then id, by code point as the database orders text', async () => {
      const read = async (columns: unknown[][]) =>
        (await loadChunks(database.db, board, 10, answering(columns)).first()).columns();
      await expect(read(chunk(['b', 'a'], ['1', '2']))).rejects.toThrow("a load's chunk is not in the board's order");
      await expect(read(chunk(['a', 'a'], ['2', '1']))).rejects.toThrow("a load's chunk is not in the board's order");
      // U+FFFF comes before U+10000 by code point, though not by JavaScript's UTF-16 comparison.
      await expect(read(chunk(['\uffff', '\u{10000}'], ['1', '2']))).resolves.toHaveLength(7);
      await expect(read(chunk(['\u{10000}', '\uffff'], ['1', '2']))).rejects.toThrow(
        "a load's chunk is not in the board's order",
      );
    });

    it('leaves the period to SQL when its load finds a chunk out of order, and the process runs on', async () => {
      await database.db
        .insertInto('scores')
        .values(
          [10, 20, 30, 40, 50].map((score) => ({
            id: `s${score}`,
            leaderboard_id: 'board',
            period_start: 0,
            player_name: `p${score}`,
            player_key: `p${score}`,
            score,
            timestamp: 1,
            metadata: null,
            engine: null,
            revision: 0,
          })),
        )
        .execute();
      // The chunks after the first come back reversed, as if the database had filled the arrays in another
      // order: the read that fails is the one asked for ahead, while the first chunk is filed.
      const reversed = async (query: CompiledQuery) => {
        const rows = await database.rows(query);
        if (!/json_(group_array|agg)/.test(query.sql) || query.parameters.length < 6) return rows;
        const row = rows[0]!;
        const reverse = (text: unknown) => JSON.stringify((JSON.parse(text as string) as unknown[]).reverse());
        return [[...row.slice(0, -1).map(reverse), row.at(-1)]];
      };
      const index = memoryRankIndex(database.db, { chunk: 2, rows: reversed });
      const key = { score: 15, timestamp: 1, player_name: 'x', id: 'x' };
      expect(await index.countAbove(board, key)).toBe(4); // SQL, while the load runs
      await index.settled();
      expect(index.entries()).toBe(0);
      expect(await index.countAbove(board, key)).toBe(4);
      expect((await index.page(board, undefined, 10)).map((r) => r.id)).toEqual(['s50', 's40', 's30', 's20', 's10']);
    });
  });
