import type { CompiledQuery, Compilable, Kysely } from 'kysely';
import type { DB } from './schema.js';
import { nameStatement } from './statement-names.js';

interface Template {
  query: CompiledQuery;
  /** For each parameter of the compiled query, the argument it takes, or -1 for a constant of the query. */
  slots: number[];
}

/**
 * A read built and compiled once per database and number of arguments, then run with new values:
 * building and compiling a Kysely query each time cost a tenth of a game call answered from one
 * row. `build` is called once with stand-ins for its arguments; a run puts each argument where its
 * stand-in was in the compiled parameters, so the order Kysely gives them does not matter. On
 * PostgreSQL it runs as a named statement (statement-names.ts), so the server plans it once too.
 */
export function prepared<R>(build: (db: Kysely<DB>, ...args: string[]) => Compilable<R>) {
  const templates = new WeakMap<Kysely<DB>, Map<number, Template>>();
  return async (db: Kysely<DB>, ...args: string[]): Promise<R[]> => {
    let byArity = templates.get(db);
    if (!byArity) templates.set(db, (byArity = new Map()));
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
    const result = await db.executeQuery<R>({ ...query, parameters } as CompiledQuery<R>);
    return result.rows;
  };
}
