import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { call } from '../../../test/support/app.js';
import { seedPlayerDocs } from '../../../test/support/player-docs.js';
import { playerGame } from '../../../test/support/players.js';
import { DIALECTS } from '../../../test/support/services.js';

// More than the socket's buffers hold, so the export is still reading pages when the game goes.
const PLAYERS = 3_000;
const DOC_BYTES = 5_000;

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: an export whose game is deleted while it downloads`, () => {
    const { ctx, newGame } = playerGame(dialect);

    it('fails as a download instead of ending as a file that looks whole', { timeout: 60_000 }, async () => {
      const game = await newGame('Deleted while exported');
      await seedPlayerDocs(ctx.t.database.db, game.game_id, PLAYERS, DOC_BYTES);
      if (!ctx.t.app.server.listening) await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = ctx.t.app.server.address() as AddressInfo;

      const res = await new Promise<IncomingMessage>((resolve, reject) =>
        get(
          {
            host: '127.0.0.1',
            port,
            path: `/api/games/${game.game_id}/player-data/export`,
            headers: { cookie: `howl_session=${ctx.cookie}` },
          },
          resolve,
        ).on('error', reject),
      );
      expect(res.statusCode).toBe(200);
      // The first bytes arrive; the developer deletes the game before reading the rest.
      res.pause();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const deleted = await call(ctx.t.app, 'DELETE', `/api/games/${game.game_id}`, { cookie: ctx.cookie });
      expect(deleted.statusCode).toBe(200);
      let received = '';
      const ended = await new Promise<'end' | 'cut'>((resolve) => {
        res.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
        res.on('end', () => resolve(res.complete ? 'end' : 'cut'));
        res.on('error', () => resolve('cut'));
        res.on('close', () => resolve(res.complete ? 'end' : 'cut'));
        res.resume();
      });
      expect(ended).toBe('cut');
      expect(() => JSON.parse(received)).toThrow();
    });
  });
}
