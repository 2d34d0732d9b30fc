import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from './database.js';
import type { DB } from './schema.js';

/**
 * What SQLite and PostgreSQL do differently, in one place, so that the feature stores say what
 * they need ("hold this row", "one at a time per key") and never which database they run on.
 * SQLite runs one write transaction at a time (database.ts opens each with BEGIN IMMEDIATE) and
 * has no row locks; PostgreSQL needs the lock.
 */

/** The dialect a connection or transaction speaks, read from the adapter Kysely chose when the database opened. */
function dialectOf(db: Kysely<DB>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * How a read holds its rows until the transaction ends: `update` to delete or change them,
 * `no key update` to change them without touching their key, `share` against both,
 * `key share` against their delete only.
 */
export type RowLock = 'update' | 'no key update' | 'share' | 'key share';

interface Lockable<Q> {
  forUpdate(): Q;
  forNoKeyUpdate(): Q;
  forShare(): Q;
  forKeyShare(): Q;
}

/** The read, holding its rows on PostgreSQL; as it is on SQLite. */
export function withRowLock<Q extends Lockable<Q>>(db: Kysely<DB>, q: Q, lock: RowLock): Q {
  if (dialectOf(db) !== 'postgres') return q;
  if (lock === 'update') return q.forUpdate();
  if (lock === 'no key update') return q.forNoKeyUpdate();
  return lock === 'share' ? q.forShare() : q.forKeyShare();
}

/** Takes the rows' lock when the read is there only for it: on SQLite nothing runs. */
export async function lockRows<Q extends Lockable<Q> & { execute(): Promise<unknown> }>(
  db: Kysely<DB>,
  q: Q,
  lock: RowLock,
): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await withRowLock(db, q, lock).execute();
}

/**
 * The one order writers take several locks in (names, rows by key): by UTF-16 code units, as `<`
 * compares, so that two writers of overlapping sets never wait on each other in a circle. Not a
 * locale's order, which may call two different texts equal.
 */
export const lockOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Holds names (not rows: they may not exist yet) until the transaction ends, so holders of the
 * same name go one at a time. In one statement, in the order given: callers give them sorted
 * (lockOrder), so two holders of overlapping names never wait on each other in a circle.
 */
export async function lockNames(trx: Kysely<DB>, names: string[]): Promise<void> {
  if (names.length === 0 || dialectOf(trx) !== 'postgres') return;
  // PostgreSQL evaluates a volatile function of the select list after the order by.
  await sql`select pg_advisory_xact_lock(hashtextextended(name, 0))
    from unnest(${names}::text[]) with ordinality as held(name, at) order by at`.execute(trx);
}

/**
 * Whether a group of writes should put its rows in one statement. On PostgreSQL each statement is
 * a round trip. SQLite runs in the process, and there a multi-row VALUES measured slower per row
 * than one statement per row (about 80 µs against 55 µs for a score in a group of 10).
 */
export function writesRowsTogether(db: Kysely<DB>): boolean {
  return dialectOf(db) === 'postgres';
}

/**
 * Whether a score has metadata, read the way `scores_rank` holds it (migration 0011), so that a
 * walk of that index never leaves it: PostgreSQL's generated column, SQLite's indexed expression.
 */
export function hasMetadata(db: Kysely<DB>): RawBuilder<boolean | number> {
  return dialectOf(db) === 'postgres' ? sql`has_metadata` : sql`metadata is not null`;
}

/**
 * A column of a bulk read's rows as one JSON array's text, in the order the rows come: better-sqlite3
 * spends most of a row's time handing it to JavaScript, and pg parses every field of every row on
 * the serving thread, where one `JSON.parse` of the array costs a fraction. An empty set is `[]`.
 */
export function jsonArrayOf(db: Kysely<DB>, column: string): RawBuilder<string> {
  // As text, so the driver hands it over unparsed: the load reads its last element first (load-chunks.ts).
  if (dialectOf(db) === 'postgres') return sql<string>`coalesce(json_agg(${sql.ref(column)})::text, '[]')`;
  return sql<string>`json_group_array(${sql.ref(column)})`;
}

/** Rows a bulk write (an import) adds at least before the table is analyzed and vacuumed (`statisticsRefresher`'s `imported`). */
export const STATISTICS_AFTER_ROWS = 1000;

/** The tables whose statistics Howl gathers itself. */
type StatisticsTable = 'scores' | 'player_data';

const analyze = (db: Kysely<DB>, table: StatisticsTable) => sql`analyze ${sql.table(table)}`.execute(db);

/**
 * A table's visibility map brought up to date: without it, a load's walk of `scores_rank` visits
 * the table for every entry it reads (a board of 10^6 seeded as an import writes loaded in 2.1 s,
 * and in 1.0 s once vacuumed). A vacuum skips the pages already marked and blocks no reads or
 * writes; it cannot run inside a transaction.
 */
async function vacuum(db: Kysely<DB>, table: StatisticsTable, alsoAnalyze = false): Promise<void> {
  // Async, so this refusal reaches a caller's catch as a rejection rather than escaping it.
  if (db.isTransaction) throw new Error('VACUUM cannot run inside a transaction');
  await (alsoAnalyze ? sql`vacuum (analyze) ${sql.table(table)}` : sql`vacuum ${sql.table(table)}`).execute(db);
}

/** Statistics and visibility map of a table written in bulk, at once (the bench's seed). SQLite keeps neither. */
export async function vacuumAnalyze(db: Kysely<DB>, table: StatisticsTable): Promise<void> {
  if (dialectOf(db) === 'postgres') await vacuum(db, table, true);
}

/** New rows, across a table, after which its statistics are gathered again (`statisticsRefresher`). */
export const STATISTICS_EVERY_ROWS = 5000;

/**
 * Gathers PostgreSQL's statistics of a table again, in the background and one run at a time, each
 * time writes have added `STATISTICS_EVERY_ROWS` rows since the last. Autovacuum waits for a tenth
 * of the table to change, which a new board beside a big one may never reach; until then the
 * planner takes the board for empty and walks it whole to find a player's entry. After an import of
 * `STATISTICS_AFTER_ROWS` rows or more, `imported` gathers them before the import answers (its
 * next reads are planned by them), then vacuums the table in the background. A failed run is only
 * reported: statistics and the visibility map make reads faster, never right, and the import's
 * rows have committed.
 */
export function statisticsRefresher(
  db: Kysely<DB>,
  table: StatisticsTable,
  onError: (err: unknown) => void,
): { added(rows: number): void; imported(rows: number): Promise<void> } {
  if (dialectOf(db) !== 'postgres') return { added() {}, imported: async () => {} };
  let added = 0;
  let running = false;
  // An import that ended while a run was under way: vacuum once that run ends.
  let vacuumNext = false;
  const start = (kind: 'analyze' | 'vacuum') => {
    running = true;
    if (kind === 'analyze') added = 0;
    (kind === 'vacuum' ? vacuum(db, table) : analyze(db, table)).catch(onError).finally(() => {
      running = false;
      if (vacuumNext) {
        vacuumNext = false;
        start('vacuum');
      }
    });
  };
  return {
    added(rows) {
      added += rows;
      if (added >= STATISTICS_EVERY_ROWS && !running) start('analyze');
    },
    async imported(rows) {
      if (rows < STATISTICS_AFTER_ROWS) return;
      await analyze(db, table).catch(onError);
      added = 0;
      if (running) vacuumNext = true;
      else start('vacuum');
    },
  };
}
