import { describe, expect, it } from 'vitest';
import { createPasswordHasher } from '../../lib/password-hasher.js';
import { hasherFor } from './password-forms.js';

describe('password forms', () => {
  const plain = createPasswordHasher(2);
  const stars = hasherFor('dots-as-stars', plain);

  it('as-typed is the hasher itself', () => {
    expect(hasherFor('as-typed', plain)).toBe(plain);
  });

  it('dots-as-stars: a new hash takes the password typed and with its dots as stars, nothing else', async () => {
    const hash = await stars.hash('Howl.Pass.1');
    expect(await stars.verify(hash, 'Howl.Pass.1')).toBe(true);
    expect(await stars.verify(hash, 'Howl*Pass*1')).toBe(true);
    expect(await stars.verify(hash, 'Howl*Pass.1')).toBe(true);
    expect(await stars.verify(hash, 'Howl-Pass-1')).toBe(false);
    expect(await plain.verify(hash, 'Howl*Pass*1')).toBe(true);
  });

  it('dots-as-stars: a hash made as typed still takes the password typed, not its starred form', async () => {
    const old = await plain.hash('Howl.Pass.1');
    expect(await stars.verify(old, 'Howl.Pass.1')).toBe(true);
    expect(await stars.verify(old, 'Howl*Pass*1')).toBe(false);
    // A password typed with stars matched as it was.
    expect(await stars.verify(await plain.hash('Howl*Pass1'), 'Howl*Pass1')).toBe(true);
  });

  it('dots-as-stars: a wrong password costs as many hashes for an unknown account as for a known one', async () => {
    let hashes = 0;
    const counted = hasherFor('dots-as-stars', {
      hash: plain.hash,
      verify: (stored, password) => ((hashes += 1), plain.verify(stored, password)),
      verifyNothing: (password) => ((hashes += 1), plain.verifyNothing(password)),
    });
    const stored = await counted.hash('Howl.Pass.1');
    for (const wrong of ['Wrong.Pass.2', 'Wrong-Pass-2']) {
      hashes = 0;
      expect(await counted.verify(stored, wrong)).toBe(false);
      const known = hashes;
      hashes = 0;
      await counted.verifyNothing(wrong);
      expect(hashes, wrong).toBe(known);
    }
  });
});
