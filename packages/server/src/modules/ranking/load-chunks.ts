import type { CompiledQuery, Kysely } from 'kysely';
import { hasMetadata, jsonArrayOf } from '../../db/dialect-sql.js';
import type { DB } from '../../db/schema.js';
import { nextTurn } from '../../lib/turn.js';
import { compareEntries, type OrderKey } from './order.js';
import type { BoardPeriod } from './rank-index.js';

/** The entries of one board period. */
const periodOf = (db: Kysely<DB>, board: BoardPeriod) =>
  db.selectFrom('scores').where('leaderboard_id', '=', board.boardId).where('period_start', '=', board.periodStart);

/** How many entries a period holds: what a load sizes its table by. */
export function countQuery(db: Kysely<DB>, board: BoardPeriod): CompiledQuery {
  return periodOf(db, board)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .compile();
}

/**
 * The load's read of one chunk of a period, after `last`, in `scores_rank`'s own order, answering
 * id, score, timestamp, player_name, revision, engine and has_metadata: all held by that index.
 */
function chunkOf(db: Kysely<DB>, board: BoardPeriod, last: OrderKey | undefined, chunk: number) {
  let q = periodOf(db, board).select([
    'id',
    'score',
    'timestamp',
    'player_name',
    'revision',
    'engine',
    hasMetadata(db).as('has_metadata'),
  ]);
  if (last) {
    const { score, timestamp, player_name, id } = last;
    q = q.where((eb) =>
      eb(eb.refTuple('score', 'timestamp', 'player_name', 'id'), '>', eb.tuple(score, timestamp, player_name, id)),
    );
  }
  return q.orderBy('score').orderBy('timestamp').orderBy('player_name').orderBy('id').limit(chunk);
}

/**
 * `chunkOf` as one row of seven JSON arrays, one per column, each in the chunk's order (the
 * aggregates read the ordered subquery's rows once, in turn), and the chunk's size: a third of the
 * cost of reading the rows on SQLite, and on PostgreSQL most of the parsing moves from the serving
 * thread to the database's own process. The query-plan test reads its plan.
 */
export function loadQuery(
  db: Kysely<DB>,
  board: BoardPeriod,
  last: OrderKey | undefined,
  chunk: number,
): CompiledQuery {
  return db
    .selectFrom(chunkOf(db, board, last, chunk).as('chunk'))
    .select([...COLUMNS.map((name) => jsonArrayOf(db, name).as(name)), (eb) => eb.fn.countAll<number>().as('size')])
    .compile();
}

/**
 * The last element of a JSON array's text, read from its end without parsing the rest: a string's
 * opening quote is the first quote before its closing one that an even run of backslashes precedes.
 */
export function lastOfJson(array: string): unknown {
  const end = array.length - 1; // the closing bracket
  if (end < 1 || array[end - 1] === '[') return undefined;
  let start = end - 1;
  if (array[start] === '"') {
    for (start--; start > 0; start--) {
      if (array[start] !== '"') continue;
      let slashes = 0;
      while (array[start - 1 - slashes] === '\\') slashes++;
      if (slashes % 2 === 0) break;
    }
  } else {
    while (array[start - 1] !== ',' && array[start - 1] !== '[') start--;
  }
  return JSON.parse(array.slice(start, end));
}

/** The key of the entry at `k` of a chunk's columns. */
const keyAt = ([ids, scores, timestamps, names]: LoadColumns, k: number): OrderKey => ({
  id: ids[k]!,
  score: scores[k]!,
  timestamp: timestamps[k]!,
  player_name: names[k]!,
});

/** Whether a chunk's keys ascend in `chunkOf`'s order: score, timestamp, then name and id by code point. */
function inOrder(columns: LoadColumns): boolean {
  const [ids, scores, timestamps] = columns;
  for (let i = 1; i < ids.length; i++) {
    // Scores and timestamps decide almost always; only their ties pay for comparing text.
    if (scores[i - 1] !== scores[i]) {
      if (scores[i - 1]! > scores[i]!) return false;
    } else if (timestamps[i - 1] !== timestamps[i]) {
      if (timestamps[i - 1]! > timestamps[i]!) return false;
    } else if (compareEntries(keyAt(columns, i - 1), keyAt(columns, i), 'asc') >= 0) return false;
  }
  return true;
}

/** The columns a load reads, in the order `chunkOf` selects them. */
const COLUMNS = ['id', 'score', 'timestamp', 'player_name', 'revision', 'engine', 'has_metadata'] as const;

/** A chunk of a load, one array per column of `COLUMNS`. */
export type LoadColumns = [
  string[],
  number[],
  number[],
  string[],
  number[],
  Array<number | null>,
  Array<number | boolean>,
];

/**
 * One chunk read: how many entries it holds and the key of its last, known before its columns are
 * parsed, so the next chunk can be asked for while this one is parsed and filed.
 */
export interface Chunk {
  size: number;
  last: OrderKey | undefined;
  columns(): LoadColumns;
}

/** Reads a load's first chunk, then each one after the last key of the one before. */
export interface Chunks {
  first(): Promise<Chunk>;
  after(last: OrderKey): Promise<Chunk>;
}

/** A chunk of JSON columns (`loadQuery`): its last key read from the arrays' ends, the rest parsed when asked. */
function jsonChunk(row: unknown[]): Chunk {
  const size = Number(row[COLUMNS.length]);
  const json = row.slice(0, COLUMNS.length) as string[];
  let last: OrderKey | undefined;
  if (size > 0) {
    const [id, score, timestamp, player_name] = json.slice(0, 4).map(lastOfJson) as [string, number, number, string];
    last = { id, score, timestamp, player_name };
  }
  return {
    size,
    last,
    columns() {
      const columns = json.map((text) => JSON.parse(text) as unknown) as LoadColumns;
      // The database fills the arrays in the subquery's order without promising to: a load that
      // finds otherwise fails (SQL keeps answering) rather than hold a wrong order.
      if (!inOrder(columns)) throw new Error("a load's chunk is not in the board's order");
      if (columns[0].length !== size || (size > 0 && compareEntries(keyAt(columns, size - 1), last!, 'asc') !== 0)) {
        throw new Error("a load's chunk does not end where its last key said");
      }
      return columns;
    },
  };
}

/** A load's chunks, read as JSON arrays (`loadQuery`). `rows` runs a compiled query (the database's `rows`). */
export function loadChunks(
  db: Kysely<DB>,
  board: BoardPeriod,
  chunk: number,
  rows: (query: CompiledQuery) => Promise<unknown[][]>,
): Chunks {
  const read = async (last: OrderKey | undefined): Promise<Chunk> =>
    jsonChunk((await rows(loadQuery(db, board, last, chunk)))[0]!);
  return { first: () => read(undefined), after: read };
}

/** Runs a compiled query through Kysely, answering rows as arrays: for a database opened without `rows`. */
export const rowsThrough =
  (db: Kysely<DB>) =>
  async (query: CompiledQuery): Promise<unknown[][]> =>
    (await db.executeQuery(query)).rows.map((r) => Object.values(r as object));

/**
 * A period's entries, a chunk of columns at a time, in `scores_rank`'s order. The next chunk is
 * asked for before this one is handed over, so the database works while the caller does, and the
 * event loop turns once per chunk, right after the asking: pg's pool sends a query only on the
 * next tick, and without a turn a big load on SQLite would hold every request.
 */
export async function* periodColumns(
  db: Kysely<DB>,
  board: BoardPeriod,
  chunk: number,
  rows: (query: CompiledQuery) => Promise<unknown[][]>,
): AsyncGenerator<LoadColumns> {
  const chunks = loadChunks(db, board, chunk, rows);
  for (let next = chunks.first(); ;) {
    const read = await next;
    const full = read.size === chunk;
    if (full) {
      next = chunks.after(read.last!);
      // Heard at the next step; a caller that stops first must not leave it unhandled (that ends the process).
      next.catch(() => undefined);
    }
    await nextTurn();
    yield read.columns();
    if (!full) return;
  }
}
