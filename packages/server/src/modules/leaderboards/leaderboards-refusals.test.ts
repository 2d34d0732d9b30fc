import { beforeAll, describe, expect, it } from 'vitest';
import { boardGame } from '../../../test/support/boards.js';
import { DIALECTS } from '../../../test/support/services.js';

// What a game is told when a leaderboard call is refused: the field and what it must be, in words.
for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: leaderboard refusals in words`, () => {
    const { v1, submit, createBoard } = boardGame(dialect);
    beforeAll(async () => {
      await createBoard({ name: 'read', max_entries: null });
      await submit('read', 'p1', 1);
    });

    // Each says what is wrong in the field's own name, not in the validation library's terms.
    it.each([
      ['/v1/leaderboards/read/around?score=1&count=x', 'count', 'count must be a whole number from 0 to 50.'],
      ['/v1/leaderboards/read/around?score=1&count=-1', 'count', 'count must be a whole number from 0 to 50.'],
      ['/v1/leaderboards/read/around?score=1&count=2.5', 'count', 'count must be a whole number from 0 to 50.'],
      ['/v1/leaderboards/read/around?score=1&count=51', 'count', 'count must be a whole number from 0 to 50.'],
      // A blank number is refused, not read as 0 (which for max would mean all).
      ['/v1/leaderboards/read/around?score=1&count=', 'count', 'count must be a whole number from 0 to 50.'],
      ['/v1/leaderboards/read/around?score=1&count=%20', 'count', 'count must be a whole number from 0 to 50.'],
      ['/v1/leaderboards/read/scores?max=', 'max', 'max must be a whole number from 0 to 1000.'],
      ['/v1/leaderboards/read/players/p1/scores?max=', 'max', 'max must be a whole number from 0 to 1000.'],
      [
        '/v1/leaderboards/read/position?score=1&period_offset=',
        'period_offset',
        'period_offset must be a whole number from -1000 to 0.',
      ],
      // One of the two would be left unanswered.
      ['/v1/leaderboards/read/position?score=1&score_id=x', 'score', 'Send score_id or score, not both.'],
      ['/v1/leaderboards/read/around?score=1&score_id=x', 'score', 'Send score_id or score, not both.'],
    ])('words the refusal of %s for a person', async (url, field, message) => {
      const res = await v1('GET', url);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({ code: 'InvalidParameter', message, field });
    });

    it('reads a number left out as its default: 3 around, 10 a page, the current period', async () => {
      for (let i = 2; i <= 12; i++) await submit('read', `p${i}`, i);
      const around = (await v1('GET', '/v1/leaderboards/read/around?score=6')).json();
      expect([around.scores_above.length, around.scores_below.length]).toEqual([3, 3]);
      expect((await v1('GET', '/v1/leaderboards/read/scores')).json().scores).toHaveLength(10);
      expect((await v1('GET', '/v1/leaderboards/read/position?score=100')).json().position).toBe(1);
    });

    it.each([
      ['a list', [1]],
      ['text', 'hi'],
      ['null', null],
    ])('refuses metadata that is %s, saying it must be an object, and saves nothing', async (_what, metadata) => {
      const res = await submit('read', 'meta-tester', 5, { metadata });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'InvalidParameter',
        message: 'metadata must be a JSON object.',
        field: 'metadata',
      });
      expect((await v1('GET', '/v1/leaderboards/read/players/meta-tester/scores')).json().scores).toEqual([]);
    });

    it.each([
      ['a list', { items: ['sword'] }, 'metadata.items'],
      // Inside a nested object, the value holding it is named.
      ['null', { run: { boss: null } }, 'metadata.run'],
    ])(
      'refuses a metadata value that is %s, naming it and saying what metadata holds',
      async (_what, metadata, field) => {
        const res = await submit('read', 'meta-tester', 5, { metadata });
        expect([res.statusCode, res.json().error]).toEqual([
          400,
          {
            code: 'InvalidParameter',
            message: 'metadata holds text, numbers, true or false, and objects of them (no lists, no null).',
            field,
          },
        ]);
      },
    );

    it('answers a score sent as text/plain with 415 UnsupportedMediaType, saving nothing', async () => {
      const res = await v1('POST', '/v1/leaderboards/read/scores', {
        headers: { 'content-type': 'text/plain' },
        body: { player_name: 'plain-text', score: 1 },
      });
      expect(res.statusCode).toBe(415);
      expect(res.json().error.code).toBe('UnsupportedMediaType');
      expect((await v1('GET', '/v1/leaderboards/read/players/plain-text/scores')).json().scores).toEqual([]);
    });
  });
}
