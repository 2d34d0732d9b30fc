import { describe, expect, it } from 'vitest';
import { newApiKey, sameSecret } from './tokens.js';

describe('sameSecret', () => {
  it('accepts the same key and refuses one that differs in a character or in length', () => {
    const key = newApiKey();
    expect(sameSecret(key, `${key}`)).toBe(true);
    expect(sameSecret(key, `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`)).toBe(false);
    expect(sameSecret(key, key.slice(0, -1))).toBe(false);
    expect(sameSecret(`${key}x`, key)).toBe(false);
    expect(sameSecret('', key)).toBe(false);
  });

  it('compares bytes, not UTF-16 units: a look-alike of the same length in characters is refused', () => {
    expect(sameSecret('howl_é', 'howl_e')).toBe(false);
    expect(sameSecret('howl_é', 'howl_é')).toBe(true);
  });
});
