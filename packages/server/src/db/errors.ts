/** True when a write broke a unique or primary-key constraint, on SQLite or PostgreSQL. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True when a write named a row that no longer exists (a foreign key), on SQLite or PostgreSQL. */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * Runs a write again when another one took a key it checked as free before it committed (the same
 * file imported into two games at once): the next run's checks see that key.
 */
export async function againOnTakenKey<T>(write: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (attempt >= attempts || !isUniqueViolation(err)) throw err;
    }
  }
}

/**
 * True when a write that holds its parent row in the same statement (a score's board, a document's
 * game) found it changed or gone: PostgreSQL refused the missing id in `column`.
 */
export function isHeldRowMissing(err: unknown, column: string): boolean {
  const e = err as { code?: unknown; column?: unknown } | null;
  return e?.code === '23502' && e.column === column;
}
