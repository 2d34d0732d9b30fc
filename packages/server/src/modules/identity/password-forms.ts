import type { PasswordHasher } from '../../lib/password-hasher.js';

/**
 * How a pool compares passwords. `as-typed`: exactly as sent. `dots-as-stars`: every `.` is read as
 * `*`, because SilentWolf's Godot 4 plugin (0.9.x) sends its login password with each `.` replaced by
 * `*` while its registration and reset send the real one; a game's players then log in from that
 * plugin and from Howl's own with the same password.
 */
export type PasswordForm = 'as-typed' | 'dots-as-stars';

const dotsAsStars = (password: string) => password.replaceAll('.', '*');

/** The pool's hasher for its password form: new hashes are of the normalised password. */
export function hasherFor(form: PasswordForm, hasher: PasswordHasher): PasswordHasher {
  if (form === 'as-typed') return hasher;
  return {
    hash: (password) => hasher.hash(dotsAsStars(password)),
    async verify(stored, password) {
      const normalised = dotsAsStars(password);
      if (await hasher.verify(stored, normalised)) return true;
      // A hash made before the pool compared this way holds the password as it was typed.
      return normalised !== password && hasher.verify(stored, password);
    },
    async verifyNothing(password) {
      await hasher.verifyNothing(dotsAsStars(password));
      // A known account checks a wrong password with a dot twice (above): an unknown one takes as long.
      if (dotsAsStars(password) !== password) await hasher.verifyNothing(password);
    },
  };
}
