import type { CompiledQuery, Compilable, Kysely } from 'kysely';
import type { DB } from './schema.js';
import { nameStatement } from './statement-names.js';

/** Runs a compiled read outside Kysely, or answers undefined when it cannot (a write). */
export type DirectRead = (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;

/** Per database (never a transaction of it): where its reads outside a transaction may run instead. */
const directReads = new WeakMap<Kysely<DB>, DirectRead>();

/**
 * Lets `prepared` reads of this database, outside a transaction, run through `read` instead of
 * Kysely (a SQLite file's read-only connection, database.ts).
 */
export function readDirectly(db: Kysely<DB>, read: DirectRead): void {
  directReads.set(db, read);
}

/** Whether this database's `prepared` reads are local calls (a SQLite file), not round trips. */
export function readsDirectly(db: Kysely<DB>): boolean {
  return directReads.has(db);
}

interface Template {
  query: CompiledQuery;
  /** For each parameter of the compiled query, the argument it takes, or -1 for a constant of the query. */
  slots: number[];
}

/**
 * A statement built and compiled once per database and number of arguments, then run with new
 * values: building and compiling a Kysely query each time cost a tenth of a game call answered from
 * one row. `build` is called once with stand-ins for its arguments (strings, whatever the column);
 * a run puts each argument, of any type, where its stand-in was in the compiled parameters, so the
 * order Kysely gives them does not matter. The compiled text depends only on the database's
 * dialect, so a transaction of the database uses the same one. On PostgreSQL it runs as a named
 * statement (statement-names.ts), so the server plans it once too: name its columns, never `*`,
 * since a column added while it is held would break it. On a SQLite file a read outside a
 * transaction skips Kysely (`readDirectly`).
 */
export function prepared<R>(build: (db: Kysely<DB>, ...args: string[]) => Compilable<R>) {
  const templates = new WeakMap<object, Map<number, Template>>();
  return async (db: Kysely<DB>, ...args: unknown[]): Promise<R[]> => {
    // One adapter per database, shared by its transactions.
    const adapter = db.getExecutor().adapter;
    let byArity = templates.get(adapter);
    if (!byArity) templates.set(adapter, (byArity = new Map()));
    let template = byArity.get(args.length);
    if (!template) {
      const standIns = args.map((_, i) => `\u0000prepared-argument-${i}`);
      const query = build(db, ...standIns).compile();
      const slots = query.parameters.map((p) => standIns.indexOf(p as string));
      // An argument the query changed on its way in (a pattern, a lower-cased copy) would send its stand-in instead.
      const unused = standIns.findIndex((_, i) => !slots.includes(i));
      if (unused >= 0) throw new Error(`prepared: argument ${unused} is not a parameter of the query as passed`);
      nameStatement(query.sql);
      template = { query, slots };
      byArity.set(args.length, template);
    }
    const { query, slots } = template;
    const parameters = query.parameters.map((p, i) => (slots[i]! >= 0 ? args[slots[i]!] : p));
    const direct = directReads.get(db)?.(query.sql, parameters);
    if (direct) return direct as R[];
    const result = await db.executeQuery<R>({ ...query, parameters } as CompiledQuery<R>);
    return result.rows;
  };
}
