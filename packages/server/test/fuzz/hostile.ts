import { MAX_JSON_DEPTH } from '@howl/contract';
import fc from 'fast-check';

/** Text a careless server would choke on: control characters, traversal, SQL and HTML fragments, odd Unicode. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u001b[31m\u007f',
  '\r\n\r\nX-Injected: 1',
  '../../../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '%',
  '%zz',
  "' OR '1'='1",
  "'; DROP TABLE games; --",
  '" OR 1=1 --',
  '\\',
  '$1',
  '%s%s%s%n',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '{{7*7}}',
  '${7*7}',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  '1e309',
  '0x10',
  '9'.repeat(400),
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\u202e\u0646\u0635',
  '🐺'.repeat(50),
  'Ａｄｍｉｎ',
  'ﬁ',
  'e\u0301',
  '\u200b',
  'ǅ',
];

/** Numbers at the edges: huge, tiny, negative zero, past JavaScript's exact integers, fractions where integers go. */
const NASTY_NUMBERS = [
  0,
  -0,
  -1,
  1.5,
  0.1,
  1e308,
  -1e308,
  5e-324,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 63),
  2 ** 64,
  Number.MAX_SAFE_INTEGER,
  2147483648,
  -2147483649,
];

export const hostileString: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    // Long: past every field's limit, well short of the body limit.
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', 'é', '🐺', '/'), fc.integer({ min: 101, max: 20_000 })) },
  )
  .map((v) => (Array.isArray(v) ? v[0].repeat(v[1]) : v));

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(...NASTY_NUMBERS),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Arrays or objects nested around a leaf, up to well past MAX_JSON_DEPTH. */
export const deepNesting: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 1, max: MAX_JSON_DEPTH * 4 }), fc.boolean())
  .map(([depth, arrays]) => nest(depth, arrays));

export function nest(depth: number, arrays: boolean): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
  return value;
}

/** Any JSON value a hostile client might put where something else belongs. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}) },
  { weight: 1, arbitrary: deepNesting },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.constant('x'), { minLength: 1001, maxLength: 3000 }) },
);

/** Path segments meant to confuse the router: encoded slashes, traversal, very long, empty-looking. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('%2F', 'a%2Fb', '..%2F..', '%2e%2e', '%00', '%', '%zz', '%C0%AF', '%ff%fe', '%20', ';', '~'),
  fc.integer({ min: 100, max: 8_000 }).map((n) => 'x'.repeat(n)),
  hostileString.map(encodeText),
);

/** Query-string and path text as it reaches the URL: mostly encoded, sometimes raw. */
export function inUrl(value: unknown, raw: boolean): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return raw ? text.replace(/[#?\s/&]/g, '') : encodeText(text);
}

/** encodeURIComponent, except that a lone surrogate goes as the bytes Node would send (it cannot be encoded). */
function encodeText(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
}
