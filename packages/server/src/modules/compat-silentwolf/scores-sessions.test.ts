import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { playerGame } from '../../../test/support/players.js';
import { DIALECTS } from '../../../test/support/services.js';
import { swCall } from '../../../test/support/silentwolf.js';

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: SilentWolf saves under a registered name`, () => {
    const { ctx, settings, loggedIn } = playerGame(dialect);

    it("need that player's session when the game requires it: x-sw-access-token carries it", async () => {
      const owner = await loggedIn('swowner');
      await settings({ require_player_session: true });
      const body = {
        score_id: randomUUID(),
        player_name: owner.name,
        game_id: ctx.game.game_id,
        score: 10,
        ldboard_name: 'main',
      };
      const bare = await swCall(ctx.t, ctx.game, 'POST', '/save_score', { body });
      expect([bare.statusCode, bare.json().success, bare.json().code]).toEqual([401, false, 'PlayerSessionRequired']);
      const signed = await swCall(ctx.t, ctx.game, 'POST', '/save_score', {
        body,
        headers: { 'x-sw-access-token': owner.access_token },
      });
      expect(signed.json()).toEqual({ success: true, score_id: body.score_id });
    });
  });
}
