/**
 * Lets the event loop turn once. A synchronous driver (SQLite) answers queries without it turning:
 * long work yields with this between its steps, so that waiting requests are read and answered.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
