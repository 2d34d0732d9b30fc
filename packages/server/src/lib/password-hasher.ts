import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { semaphore } from './semaphore.js';

// OWASP minimum for argon2id: 19 MiB, 2 passes, 1 lane. `algorithm: 2` is Argon2id
// (the library's Algorithm enum is a const enum that tsx cannot import).
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Spends the same time as a real verify, so an unknown account cannot be told apart by timing. */
  verifyNothing(password: string): Promise<void>;
}

/**
 * argon2id on libuv's thread pool (off the event loop), at most `maxConcurrent` at once so that a
 * burst of sign-ins queues instead of eating all memory and every thread.
 */
export function createPasswordHasher(maxConcurrent = Math.max(2, availableParallelism())): PasswordHasher {
  const limit = semaphore(maxConcurrent);
  let dummyHash: Promise<string> | undefined;
  const self: PasswordHasher = {
    hash: (password) => limit(() => hash(password, ARGON2ID)),
    verify: (stored, password) =>
      limit(async () => {
        try {
          return await verify(stored, password);
        } catch {
          return false;
        }
      }),
    async verifyNothing(password) {
      dummyHash ??= self.hash('howl-timing-equaliser');
      await self.verify(await dummyHash, password);
    },
  };
  return self;
}
