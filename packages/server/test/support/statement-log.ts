/**
 * The statements a test database runs, for tests that assert which way a write took: pass `hooks`
 * to openTestDatabase; a statement the database refused is logged with `failed: ` before it.
 * `heard` sees each statement run, with its parameters, as it is logged.
 */
export function statementLog(heard?: (text: string, parameters: readonly unknown[]) => void) {
  const statements: string[] = [];
  return {
    hooks: {
      onQuery: (text: string, parameters: readonly unknown[]) => {
        statements.push(text);
        heard?.(text, parameters);
      },
      onFailedQuery: (text: string) => statements.push(`failed: ${text}`),
    },
    /** The statements `run` made, trimmed and lower-cased. */
    async made(run: () => Promise<unknown>): Promise<string[]> {
      statements.length = 0;
      await run();
      return statements.map((s) => s.trim().toLowerCase());
    },
  };
}
