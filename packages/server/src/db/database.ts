import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  CompiledQuery,
  type Driver,
  type LogEvent,
  type PostgresCursor,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
} from 'kysely';
import pg from 'pg';
import { withTimeout } from '../lib/timeout.js';
import { startCheckpointer } from './checkpointer.js';
import { sqliteReader } from './sqlite-reader.js';
import type { DB } from './schema.js';
import { readDirectly } from './prepared.js';
import { statementName } from './statement-names.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** PostgreSQL only: the schema this connection works in, when not the default. */
  schema?: string;
  /** SQLite only: the database file, as an absolute path (a relative one is read from the working directory). */
  file?: string;
  /** True when the database answers a trivial query within a few seconds. */
  ping(): Promise<boolean>;
  /** Hears a connection the database dropped (restart, failover, pg_terminate_backend); the pool replaces it. */
  onConnectionError(listener: (err: Error) => void): void;
  /**
   * Runs a compiled read and answers each row as an array of its values in column order: no object
   * per row, for bulk reads. On a SQLite file it runs in a thread of its own (sqlite-reader.ts).
   */
  rows(query: CompiledQuery): Promise<unknown[][]>;
  destroy(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL only: the schema to use, so test suites can run side by side. */
  schema?: string;
  /** PostgreSQL only: the most connections the pool opens; poolSizeFor(this machine) when unset. */
  poolSize?: number | undefined;
  /** PostgreSQL only: run the reads `prepared` registers as named statements (the default); false behind a pooler that cannot keep them. */
  namedStatements?: boolean;
  /** Hears every statement run (the query-plan test reads them). */
  onQuery?: (sql: string, parameters: readonly unknown[]) => void;
  /** Hears every statement the database refused. */
  onFailedQuery?: (sql: string, parameters: readonly unknown[]) => void;
}

/** `sqlite:./path.db`, `sqlite::memory:` or `postgres://…`. */
export function createDatabase(url: string, options: DatabaseOptions = {}): Database {
  const { onQuery, onFailedQuery } = options;
  const log =
    onQuery || onFailedQuery
      ? (event: LogEvent) => {
          const hear = event.level === 'query' ? onQuery : onFailedQuery;
          hear?.(event.query.sql, event.query.parameters);
        }
      : undefined;
  const file = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : undefined;
  // Until the app listens, a dropped connection is written to stderr: it must never go unheard.
  let connectionError = (err: Error) => console.error('a database connection was lost:', err.message);
  const { db, rows, close } =
    file !== undefined ? createSqlite(file, log) : createPostgres(url, options, (err) => connectionError(err), log);
  const checkpointer = file !== undefined && file !== ':memory:' ? startCheckpointer(resolve(file)) : undefined;
  const dialect: Dialect = url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
  return {
    db,
    dialect,
    ...(options.schema ? { schema: options.schema } : {}),
    ...(file !== undefined && file !== ':memory:' ? { file: resolve(file) } : {}),
    // Heard like Kysely's statements, though they run beside it.
    rows: options.onQuery ? (query) => (options.onQuery!(query.sql, query.parameters), rows(query)) : rows,
    async ping() {
      try {
        await withTimeout(sql`select 1`.execute(db), PING_TIMEOUT_MS);
        return true;
      } catch {
        return false;
      }
    },
    onConnectionError(listener) {
      connectionError = listener;
    },
    async destroy() {
      await checkpointer?.stop();
      await close?.();
      await db.destroy();
    },
  };
}

type Connection = Pick<Database, 'db' | 'rows'> & { close?(): Promise<void> };

/** A health check that waits longer than this calls the database down. */
const PING_TIMEOUT_MS = 5_000;

function createSqlite(path: string, log?: (event: LogEvent) => void): Connection {
  const file = path === ':memory:' ? path : resolve(path);
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  // WAL lets readers run while one writer commits; foreign keys are off by default in SQLite.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // Checkpoints run in a thread of their own (db/checkpointer.ts), not inside a request's commit.
  if (file !== ':memory:') sqlite.pragma('wal_autocheckpoint = 0');
  // A WAL started over after a full checkpoint is cut back to this size, so it never stays large on disk.
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  const db = new Kysely<DB>({
    dialect: new ImmediateSqliteDialect({ database: reusingStatements(sqlite) }),
    ...(log ? { log } : {}),
  });
  if (file !== ':memory:') {
    const reader = sqliteReader(file);
    // A logged database (tests that read its statements) keeps every read in Kysely's log.
    const direct = log ? undefined : directReader(file);
    if (direct) readDirectly(db, direct.read);
    return {
      db,
      rows: reader.rows,
      close: async () => {
        direct?.close();
        await reader.close();
      },
    };
  }
  // A statement of its own: raw mode would change what Kysely's shared statements answer.
  const rows = async (query: CompiledQuery) =>
    sqlite
      .prepare(query.sql)
      .raw(true)
      .all(...query.parameters) as unknown[][];
  return { db, rows };
}

/**
 * Transactions here write, and often read first (a board's settings, then the save). A plain BEGIN
 * would take the write lock only at the first write, and SQLite refuses that upgrade at once
 * ("database is locked", busy_timeout or not) when a checkpoint moved the WAL meanwhile. BEGIN
 * IMMEDIATE takes the write lock up front and waits for it under busy_timeout.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      for (let attempt = 1; ; attempt++) {
        try {
          await connection.executeQuery(CompiledQuery.raw('begin immediate'));
          return;
        } catch (err) {
          // Nothing has begun, so it is safe to ask again: under heavy load SQLite may still answer
          // "database is locked" (past busy_timeout, or at once while a checkpoint resets the WAL).
          if ((err as { code?: unknown }).code !== 'SQLITE_BUSY' || attempt >= BEGIN_ATTEMPTS) throw err;
          await sleep(attempt * 10);
        }
      }
    };
    return driver;
  }
}

/** Bytes a WAL file keeps when it starts over (64 MB: a few seconds of heavy writing). */
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;

/** How often a transaction asks SQLite for the write lock before its caller hears "database is locked". */
const BEGIN_ATTEMPTS = 4;

/** Statements kept between queries, at most this many (the app runs a few dozen distinct ones). */
const STATEMENTS = 500;

/**
 * Kysely prepares every query afresh; preparing cost as much as running the query on the game
 * API's hot paths. The same SQL text gets the same prepared statement back (the driver runs one
 * statement to completion before the next, and nothing here iterates a statement lazily).
 */
function reusingStatements(sqlite: SqliteDatabase.Database): {
  close(): void;
  prepare(text: string): SqliteDatabase.Statement;
} {
  const prepared = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = prepared.get(text);
      if (!statement) {
        if (prepared.size >= STATEMENTS) prepared.delete(prepared.keys().next().value!);
        statement = sqlite.prepare(text);
        prepared.set(text, statement);
      }
      return statement;
    },
  };
}

/**
 * A read-only connection for the hot reads outside transactions (`prepared`): one statement,
 * run at once, with no pass through Kysely's connection lock and promises (a third of a document
 * read's time), and never waiting behind a write transaction, whose uncommitted rows it cannot
 * see. Like any read on PostgreSQL, it sees what has committed when it runs.
 */
function directReader(file: string) {
  const sqlite = new SqliteDatabase(file, { readonly: true });
  sqlite.pragma('busy_timeout = 5000');
  const statements = reusingStatements(sqlite);
  return {
    read(text: string, parameters: readonly unknown[]): unknown[] | undefined {
      const statement = statements.prepare(text);
      // A write (an upsert run outside a transaction) stays with Kysely and the writing connection.
      return statement.reader && statement.readonly ? statement.all(...parameters) : undefined;
    },
    close: statements.close,
  };
}

// Timestamps are bigint milliseconds; pg returns int8 as a string unless told otherwise.
const INT8_OID = 20;
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * Connections for a machine of this many cores: two per core and one more (while one waits on the
 * network or a lock, another runs), never fewer than 10, the pool size Howl had before.
 */
export function poolSizeFor(cores: number): number {
  return Math.max(10, cores * 2 + 1);
}

/**
 * The pool as Kysely sees it: each client runs the statements `nameStatement` named as named
 * statements. One wrapper per pooled client, since Kysely keeps a connection object per client.
 */
function naming(pool: pg.Pool): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    function query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    function query(text: unknown, values?: readonly unknown[]): unknown {
      // A cursor (Kysely's streaming) passes through as it is.
      if (typeof text !== 'string') return client.query(text as pg.Submittable);
      return client.query({ name: statementName(text), text, values: values as unknown[] });
    }
    return { query, release: () => client.release() };
  };
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) wrappers.set(client, (wrapper = wrap(client)));
      return wrapper;
    },
    end: () => pool.end(),
  };
}

function createPostgres(
  url: string,
  options: DatabaseOptions,
  onConnectionError: (err: Error) => void,
  log?: (event: LogEvent) => void,
): Connection {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? poolSizeFor(availableParallelism()),
    types: pgTypes,
    // Names Howl's sessions in pg_stat_activity; an application_name in the URL wins.
    application_name: 'howl',
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle connection the server ended reaches the pool's 'error'; one in use (between a
  // transaction's queries) reaches its client's. Unheard, either event ends the process. The pool
  // drops the broken connection and opens a new one for the next query.
  pool.on('error', onConnectionError);
  pool.on('connect', (client) => client.on('error', onConnectionError));
  const dialect = new PostgresDialect({ pool: options.namedStatements === false ? pool : naming(pool) });
  const db = new Kysely<DB>({ dialect, ...(log ? { log } : {}) });
  const rows = async (query: CompiledQuery) =>
    (await pool.query({ text: query.sql, values: query.parameters as unknown[], rowMode: 'array' }))
      .rows as unknown[][];
  return { db, rows };
}
