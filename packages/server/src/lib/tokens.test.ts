import { describe, expect, it } from 'vitest';
import { newApiKey, newScoreId, sameSecret } from './tokens.js';

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

describe('newScoreId', () => {
  it('makes a version 7 UUID that starts with the time it was made, sorts by that time, and differs each time', () => {
    const at = Date.UTC(2026, 10, 27, 12, 0, 0, 123);
    const id = newScoreId(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
    expect(newScoreId(at)).not.toBe(id);
    expect(newScoreId(at + 1) > id).toBe(true);
    const ids = Array.from({ length: 1000 }, () => newScoreId(at));
    expect(new Set(ids).size).toBe(1000);
  });
});
