import { describe, expect, it } from 'vitest';
import { STRONG_PASSWORD } from '../../test/support/app.js';
import { playerGame } from '../../test/support/players.js';
import { DIALECTS } from '../../test/support/services.js';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `id-${i}`);

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: every value that sets the amount of work is bounded`, () => {
    const { console, v1, loggedIn } = playerGame(dialect);

    /** [what, call at the limit, call one past it, the field the refusal names] */
    const bounds: Array<[string, () => ReturnType<typeof v1>, () => ReturnType<typeof v1>, string]> = [
      [
        'a password the console sets (256 characters)',
        () => console('PUT', '/players/nobody/password', { password: `${STRONG_PASSWORD}${'x'.repeat(246)}` }),
        () => console('PUT', '/players/nobody/password', { password: `${STRONG_PASSWORD}${'x'.repeat(247)}` }),
        'password',
      ],
      [
        'a page of players (50)',
        () => console('GET', '/players?limit=50'),
        () => console('GET', '/players?limit=51'),
        'limit',
      ],
      [
        'a page of scores (1000)',
        () => v1('GET', '/v1/leaderboards/main/scores?max=1000'),
        () => v1('GET', '/v1/leaderboards/main/scores?max=1001'),
        'max',
      ],
      [
        'scores around a value (50 each side)',
        () => v1('GET', '/v1/leaderboards/main/around?score=1&count=50'),
        () => v1('GET', '/v1/leaderboards/main/around?score=1&count=51'),
        'count',
      ],
      [
        'score ids deleted at once (500)',
        () => console('POST', '/scores/delete', { score_ids: ids(500) }),
        () => console('POST', '/scores/delete', { score_ids: ids(501) }),
        'score_ids',
      ],
      [
        'player-data keys deleted at once (1000)',
        () => v1('DELETE', '/v1/player-data/someone', { body: { keys: ids(1000) } }),
        () => v1('DELETE', '/v1/player-data/someone', { body: { keys: ids(1001) } }),
        'keys',
      ],
      [
        'a cursor (2000 characters)',
        () => v1('GET', `/v1/leaderboards/main/scores?cursor=${'x'.repeat(2000)}`),
        () => v1('GET', `/v1/leaderboards/main/scores?cursor=${'x'.repeat(2001)}`),
        'cursor',
      ],
    ];

    it.each(bounds)(
      '%s: takes the limit and refuses one past it with 400',
      async (_what, atLimit, pastLimit, field) => {
        const past = await pastLimit();
        expect([past.statusCode, past.json().error.code, past.json().error.field]).toEqual([
          400,
          'InvalidParameter',
          field,
        ]);
        // At the limit the size rule holds; the call may still fail for other reasons (no such player).
        const at = await atLimit();
        expect(at.statusCode).toBeLessThan(500);
        expect(at.json().error?.message, at.body).not.toBe(past.json().error.message);
      },
    );

    it('sets a 256-character password that works for the next login', async () => {
      const p = await loggedIn('long');
      const password = `${STRONG_PASSWORD}${'x'.repeat(246)}`;
      expect((await console('PUT', `/players/${p.name}/password`, { password })).statusCode).toBe(200);
      const login = await v1('POST', '/v1/players/login', { body: { player_name: p.name, password } });
      expect(login.statusCode).toBe(200);
    });
  });
}
