/**
 * SQL texts PostgreSQL runs as named statements, parsed and planned once per connection instead of
 * at every run. Only the reads `prepared` compiles once belong here: a bounded set (each lives as
 * long as its connection on the server), where naming every text would keep one per distinct query.
 */
const names = new Map<string, string>();

export function nameStatement(sql: string): void {
  if (!names.has(sql)) names.set(sql, `howl_${names.size + 1}`);
}

/** The name of a statement `nameStatement` was given; undefined runs it unnamed. */
export function statementName(sql: string): string | undefined {
  return names.get(sql);
}
