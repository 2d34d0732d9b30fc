import { MAX_JSON_DEPTH } from '@howl/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkClientJson, plainlyClean } from './client-json.js';

/** Whether the walk takes what the text parses to. */
const walkTakes = (text: string) => {
  try {
    checkClientJson(JSON.parse(text));
    return true;
  } catch {
    return false;
  }
};
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

// Texts near every edge of the rule: numbers around a double's largest, escapes of NUL and of
// surrogates (paired and not), brackets inside strings, and nesting around the limit.
const edgeText = fc.oneof(
  fc.constantFrom(
    '1e308',
    '1.7976931348623157e308',
    '1e309',
    '-1E400',
    '9e999',
    '1e+309',
    '-2E+400',
    '1e-400',
    '9'.repeat(299) + '.5e10',
    '9'.repeat(309),
    '9'.repeat(310),
    '"\\u0000"',
    '"\\\\u0000"',
    '"\\ud83d\\udc3a"',
    '"\\ud800"',
    '"\\uDC00x"',
    `"${'\ud800'}"`,
    '"a\\"[[[["',
    '"\\\\"',
    '"3e4a-uuid"',
  ),
  fc.integer({ min: MAX_JSON_DEPTH - 2, max: MAX_JSON_DEPTH + 3 }).map(nested),
  fc.string({ unit: 'binary' }).map((s) => JSON.stringify(s)),
);
const bodyText = fc.oneof(
  fc.json(),
  // The same edges as keys: a key's text meets the rule too.
  fc
    .array(edgeText, { maxLength: 3 })
    .map((parts) => `{${parts.map((p, i) => `${p.startsWith('"') ? p : JSON.stringify(p)}:${i}`).join(',')}}`),
  fc.array(edgeText, { maxLength: 4 }).map((parts) => `{"player_data":[${parts.join(',')}]}`),
  fc
    .tuple(fc.integer({ min: 0, max: MAX_JSON_DEPTH + 2 }), edgeText)
    .map(([depth, inner]) => '{"a":'.repeat(depth) + inner + '}'.repeat(depth)),
);

describe('a body whose text proves it clean is not walked', () => {
  it('never calls clean a text whose walk would refuse it (property)', () => {
    fc.assert(
      fc.property(bodyText, (text) => {
        if (plainlyClean(text)) expect(walkTakes(text), text.slice(0, 200)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('passes a typical save game and score, and the deepest nesting the rule takes', () => {
    const save = {
      hero: { name: 'a player', zone: 'zone-7', type: 'type2', level: 12, xp: 10_450.5, position: { x: -3.25, y: 7 } },
      inventory: Array.from({ length: 20 }, (_, i) => ({ item: `item-${i}`, count: i, tags: ['a', 'b'] })),
      note: 'braces { and [ in "text" are not nesting',
    };
    expect(plainlyClean(JSON.stringify({ player_data: save, overwrite: true }))).toBe(true);
    expect(plainlyClean('{"player_name":"a player","score":12.5,"metadata":{"level":"3-1","hp":[1,2]}}')).toBe(true);
    // The body is level 0: its fields may nest MAX_JSON_DEPTH levels.
    expect(plainlyClean(`{"a":${nested(MAX_JSON_DEPTH)}}`)).toBe(true);
    expect(walkTakes(`{"a":${nested(MAX_JSON_DEPTH)}}`)).toBe(true);
  });

  it('reads a body of long digit runs in one pass, not once per digit', () => {
    // 1 MB of 299-digit numbers: a pattern retried at every digit took about 250 ms here, one pass
    // about 5 ms. The bound is loose; it only tells the two apart.
    const text = `[${Array.from({ length: 3_300 }, () => '9'.repeat(299)).join(',')}]`;
    const started = performance.now();
    expect(plainlyClean(text)).toBe(true);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it.each([
    ['one level deeper', `{"a":${nested(MAX_JSON_DEPTH + 1)}}`],
    ['an escaped NUL', '{"a":"x\\u0000"}'],
    ['an escaped half of a surrogate pair', '{"a":"\\ud83d"}'],
    ['a lone surrogate', `{"a":"${'\ud800'}"}`],
    ['an exponent', '{"a":1e309}'],
    ['300 digits', `{"a":${'9'.repeat(300)}}`],
  ])('walks a text with %s', (_what, text) => {
    expect(plainlyClean(text)).toBe(false);
  });
});
