import {
  errorResponse,
  playerDataResponse,
  playerProfile,
  registerPlayerResponse,
  scoresPage,
  submitScoreResponse,
} from '@howl/contract';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { boardGame } from '../../test/support/boards.js';
import { sharedAnswer } from '../lib/shared-answer.js';
import { checkingSerializerCompiler, serializerCompiler } from './serializer.js';

/** What the zod serializer used to send: the parsed answer, as JSON.stringify writes it. */
function bothWays(schema: z.ZodType, value: unknown) {
  const fast = serializerCompiler({ schema, method: 'GET', url: '/', httpStatus: '200' });
  return { fast: fast(value), zod: JSON.stringify(schema.parse(value)) };
}

const score = (overrides: Record<string, unknown>) => ({
  score_id: 's1',
  player_name: 'Ünïcödé "quoted" \\ \u2028 name',
  score: -12.5,
  timestamp: 1_767_225_600_000,
  metadata: null,
  position: 1,
  engine: null,
  ...overrides,
});

describe('the fast serializer writes the bytes JSON.stringify writes of the zod-parsed answer', () => {
  it('a scores page with metadata null, an object nested with every kind of value, and a period', () => {
    const page = {
      scores: [
        score({}),
        score({
          score_id: 's2',
          score: 1e21,
          position: 2,
          engine: 4,
          metadata: { level: 3, nested: { ok: true, ratio: 0.1, name: 'é\n"x"' }, '2': 'numeric key', empty: {} },
        }),
        score({ score_id: 's3', score: 0, position: 3, engine: 3, metadata: {} }),
      ],
      period: { offset: 0, start: '2026-01-01T00:00:00.000Z', end: '2026-01-02T00:00:00.000Z', next_reset: 'x' },
      cursor: null,
    };
    const { fast, zod } = bothWays(scoresPage, page);
    expect(fast).toBe(zod);
    expect(bothWays(scoresPage, { ...page, period: null, cursor: 'abc' }).fast).toBe(
      bothWays(scoresPage, { ...page, period: null, cursor: 'abc' }).zod,
    );
  });

  it('drops what the contract does not name, as zod stripped it', () => {
    const row = { ...score({}), game_id: 'secret', revision: 7 };
    const { fast, zod } = bothWays(scoresPage, { scores: [row], period: null, cursor: null, extra: 1 });
    expect(fast).toBe(zod);
    expect(fast).not.toContain('secret');
  });

  it('a player profile, with and without an email, and the answer that nests it', () => {
    for (const email of ['a@example.com', null]) {
      const player = { player_name: 'wolf', email, state: 'CONFIRMED' };
      const profile = bothWays(playerProfile, player);
      expect(profile.fast).toBe(profile.zod);
      const registered = bothWays(registerPlayerResponse, { player, confirmation_required: false });
      expect(registered.fast).toBe(registered.zod);
    }
  });

  it('the error envelope, with and without its optional fields', () => {
    for (const error of [
      { code: 'NotFound', message: 'No such leaderboard.' },
      { code: 'InvalidParameter', message: 'score must be a number.', field: 'score' },
      { code: 'VersionConflict', message: 'The data changed.', current_version: 4 },
    ]) {
      const { fast, zod } = bothWays(errorResponse, { error });
      expect(fast).toBe(zod);
    }
  });

  it('a submit answer with and without a position, and player data documents', () => {
    for (const position of [null, 3]) {
      const { fast, zod } = bothWays(submitScoreResponse, { score_id: 'x', position, kept: true });
      expect(fast).toBe(zod);
    }
    for (const document of [
      {
        player_name: 'wolf',
        player_data: { a: [1, 'two', { three: null }], b: { c: false } },
        version: 2,
        updated_at: 'now',
      },
      { player_name: 'wolf', character: 'mage', player_data: {}, version: 0, updated_at: null },
    ]) {
      const { fast, zod } = bothWays(playerDataResponse, document);
      expect(fast).toBe(zod);
    }
  });
});

describe('answers of a running app are what the contract writes', () => {
  const { submit, v1 } = boardGame('sqlite');

  it('a scores page from the game API is byte for byte JSON.stringify of its zod parse', async () => {
    expect((await submit('main', 'first', 10, { metadata: { class: 'mage', gear: { level: 2 } } })).statusCode).toBe(
      200,
    );
    expect((await submit('main', 'second', 5.5)).statusCode).toBe(200);
    const res = await v1('GET', '/v1/leaderboards/main/scores');
    expect(res.statusCode).toBe(200);
    expect(res.json().scores.map((s: { metadata: unknown }) => s.metadata)).toEqual([
      { class: 'mage', gear: { level: 2 } },
      null,
    ]);
    expect(res.body).toBe(JSON.stringify(scoresPage.parse(res.json())));
  });

  it('an error answer keeps the envelope', async () => {
    const res = await v1('GET', '/v1/leaderboards/nope/scores');
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe(JSON.stringify(errorResponse.parse(res.json())));
  });
});

describe('under NODE_ENV=test every answer is checked against its schema', () => {
  const route = { schema: submitScoreResponse, method: 'POST', url: '/', httpStatus: '200' };
  const wrong = { score_id: 's1', position: 3, kept: 'no' };

  it('refuses an answer that breaks the contract, which the plain writer would bend to fit', () => {
    expect(() => checkingSerializerCompiler(route)(wrong)).toThrow();
    expect(() => serializerCompiler(route)(wrong)).not.toThrow();
  });

  it('writes a correct answer exactly as the plain writer does', () => {
    const right = { score_id: 's1', position: 3, kept: true };
    expect(checkingSerializerCompiler(route)(right)).toBe(serializerCompiler(route)(right));
  });
});

describe('a shared answer is written once', () => {
  const route = { schema: scoresPage, method: 'GET', url: '/', httpStatus: '200' };
  /** A page that counts how often its scores are read. */
  const counted = () => {
    const seen = { reads: 0 };
    const page = {
      get scores() {
        seen.reads++;
        return [score({})];
      },
      period: null,
      cursor: null,
    };
    return { page, seen };
  };

  it('writes a shared answer on its first call only, with the same text every time', () => {
    const write = serializerCompiler(route);
    const { page, seen } = counted();
    sharedAnswer(page);
    seen.reads = 0;
    const text = write(page);
    expect(text).toBe(JSON.stringify({ scores: [score({})], period: null, cursor: null }));
    expect(write(page)).toBe(text);
    expect(seen.reads).toBe(1);
  });

  it('keeps the text of each shared answer apart, per answer and per route', () => {
    const pages = serializerCompiler(route);
    const submits = serializerCompiler({ ...route, schema: submitScoreResponse });
    const first = sharedAnswer({ scores: [score({})], period: null, cursor: null });
    const second = sharedAnswer({ scores: [score({ score_id: 's2', position: 2 })], period: null, cursor: 'c' });
    const saved = sharedAnswer({ score_id: 's1', position: 3, kept: true });
    for (let i = 0; i < 2; i++) {
      expect(pages(first)).toBe(JSON.stringify(first));
      expect(pages(second)).toBe(JSON.stringify(second));
      expect(submits(saved)).toBe(JSON.stringify(saved));
    }
  });

  it('writes any other answer on every call, and refuses a change to a shared one', () => {
    const write = serializerCompiler(route);
    const { page, seen } = counted();
    write(page);
    write(page);
    expect(seen.reads).toBe(2);
    const shared = sharedAnswer({ scores: [score({ metadata: { level: 1 } })], period: null, cursor: null });
    expect(() => {
      (shared.scores[0]!.metadata as unknown as { level: number }).level = 2;
    }).toThrow(TypeError);
  });
});
