import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, signedInDeveloper } from '../../../test/support/app.js';
import { IMPORT_SETUPS, importGames } from '../../../test/support/imports.js';
import { IMPORT_ROWS_PER_TRANSACTION } from '../leaderboards/import.js';
import { IMPORTS_AT_ONCE } from './service.js';

for (const { dialect, skip, index, redis } of IMPORT_SETUPS) {
  describe.skipIf(skip)(`${dialect}, ${index} index: an import written in steps`, () => {
    const { ctx, console: consoleCall, game, v1Of } = importGames(dialect, redis);

    // A big file goes in several transactions: what each commits is ranked at once, and other requests are answered between them.
    const bigFile = (name: string, n: number) => ({
      leaderboards: [{ name, scores: Array.from({ length: n }, (_, i) => ({ sid: randomUUID(), pn: `p${i}`, s: i })) }],
    });
    const positionAfter = async (g: Awaited<ReturnType<typeof game>>, board: string): Promise<number> =>
      (await v1Of(g)('GET', `/v1/leaderboards/${board}/position?score=-1`)).json().position;
    /** Asks for the position a lowest score would take (one past the board's entries) until `done` settles. */
    async function positionsWhile(g: Awaited<ReturnType<typeof game>>, board: string, done: Promise<unknown>) {
      let settled = false;
      void done.finally(() => (settled = true));
      const seen: number[] = [];
      while (!settled) {
        seen.push(await positionAfter(g, board));
        // Requests arrive from the network, between turns of the event loop; injected ones would not.
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return seen;
    }

    it('answers reads between the transactions of a big import, each showing what has committed', async () => {
      const g = await game();
      const n = 4 * IMPORT_ROWS_PER_TRANSACTION + 17;
      const importing = g.importing(bigFile('main', n));
      const seen = await positionsWhile(g, 'main', importing);
      expect((await importing).json().scores).toEqual({ imported: n, skipped: 0 });
      // Reads were answered while the import was under way, and each saw whole transactions of it.
      const partial = seen.filter((p) => p > 1 && p < n + 1);
      expect(partial.length, JSON.stringify(seen)).toBeGreaterThan(0);
      for (const p of partial) expect((p - 1) % IMPORT_ROWS_PER_TRANSACTION, String(p)).toBe(0);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(await positionAfter(g, 'main')).toBe(n + 1);
    }, 60_000);

    it('stops with 409 when the board changes under a big import, and the same file again completes it', async () => {
      const g = await game();
      const n = 8 * IMPORT_ROWS_PER_TRANSACTION;
      const file = bigFile('main', n);
      const importing = g.importing(file);
      // Once the import has committed its first transaction, the board's order changes.
      while ((await positionAfter(g, 'main')) === 1) await new Promise((resolve) => setTimeout(resolve, 1));
      const changed = await consoleCall('PUT', '/leaderboards/main', { sort: 'asc' }, g.game_id);
      expect(changed.statusCode).toBe(200);
      const stopped = await importing;
      expect(stopped.statusCode, stopped.body).toBe(409);
      expect(stopped.json().error).toEqual({
        code: 'LeaderboardChanged',
        message:
          'The leaderboard "main" was changed or wiped while the import wrote it, so the import stopped; what it wrote before stays. Import the same file again to complete it.',
      });
      const boards = (await consoleCall('GET', '/leaderboards', undefined, g.game_id)).json().leaderboards;
      const written: number = boards.find((b: { name: string }) => b.name === 'main').entry_count;
      expect(written).toBeGreaterThan(0);
      expect(written).toBeLessThan(n);
      const again = await g.importing(file);
      expect(again.json().scores).toEqual({ imported: n - written, skipped: written });
      const listed = (await consoleCall('GET', '/leaderboards', undefined, g.game_id)).json().leaderboards;
      expect(listed.find((b: { name: string }) => b.name === 'main')).toMatchObject({ entry_count: n, sort: 'asc' });
      // The index agrees: the board, now lowest first, has every score of the file above a higher one.
      const after = await v1Of(g)('GET', `/v1/leaderboards/main/position?score=${n}`);
      expect(after.json().position).toBe(n + 1);
    }, 60_000);

    it('creates accounts in several transactions, a name twice in the file once', async () => {
      const g = await game();
      const players = Array.from({ length: 1202 }, (_, i) => ({ pn: `player${i}` }));
      const res = await g.importing({ players: [...players, { pn: 'player0', em: 'late@example.com' }] });
      expect(res.json().players).toEqual({ imported: 1202, skipped: 1, without_email: 1202 });
      const listed = await consoleCall('GET', '/players?limit=1', undefined, g.game_id);
      expect(listed.json().players[0]).toMatchObject({ player_name: 'player0', email: null });
    });

    it("writes a developer's imports one at a time, and at most IMPORTS_AT_ONCE at once", async () => {
      const g = await game();
      const file = bigFile('main', 4 * IMPORT_ROWS_PER_TRANSACTION);
      const answers = await Promise.all([g.importing(file), g.importing(bigFile('main', 10))]);
      // Whichever began writing first is written; the other is refused.
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429]);
      const refused = answers.find((a) => a.statusCode === 429)!;
      expect(refused.json().error).toEqual({
        code: 'LimitExceeded',
        message: 'An import of yours is still being written. Send the next one once it has answered.',
      });
      expect(refused.headers['retry-after']).toBe('5');
      expect((await g.importing(bigFile('main', 10))).statusCode).toBe(200);

      // Other developers' imports, one more than a process writes at once.
      const others = await Promise.all(
        Array.from({ length: IMPORTS_AT_ONCE + 1 }, async () => {
          const { cookie } = await signedInDeveloper(ctx.t);
          const made = (await call(ctx.t.app, 'POST', '/api/games', { body: { name: 'Theirs' }, cookie })).json();
          return { cookie, gameId: made.game_id as string };
        }),
      );
      const importing = (d: { cookie: string; gameId: string }) =>
        call(ctx.t.app, 'POST', `/api/games/${d.gameId}/import`, { body: file, cookie: d.cookie });
      // They import the same file, ids and all: each id lands once, the others get new ones.
      const statuses = (await Promise.all(others.map(importing))).map((r) => r.statusCode);
      expect([...statuses].sort()).toEqual([...Array(IMPORTS_AT_ONCE).fill(200), 429]);
      expect((await importing(others[statuses.indexOf(429)]!)).statusCode).toBe(200);
    }, 60_000);
  });
}
