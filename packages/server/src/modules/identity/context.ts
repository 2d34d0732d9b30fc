import type { Kysely, Transaction } from 'kysely';
import type { AuthLimits } from '../../config.js';
import type { DB } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { PasswordHasher } from '../../lib/password-hasher.js';
import type { LimiterFactory } from '../../lib/rate-limits.js';
import type { CodePurpose, IdentityUser } from './identity.table.js';
import type { IdentityLimits } from './limits.js';

export interface IdentityDeps {
  db: Kysely<DB>;
  clock: Clock;
  hasher: PasswordHasher;
  limiters: LimiterFactory;
  limits: AuthLimits;
}

export interface UserPoolOptions {
  /** `developers`, or `game:<gameId>` for one game's players. */
  poolId: string;
  /** Delivers a code to the account's email, in the pool's own words. */
  sendCode(user: { username: string; email: string | null }, purpose: CodePurpose, code: string): Promise<void>;
  /** Lifetime of a new session; null means it never expires. */
  sessionTtlMs(): number | null;
}

/** Writes a feature's own row for an account (names, company…), on creation and when a pending sign-up is redone. */
export type SaveProfile = (trx: Transaction<DB>, user: IdentityUser) => Promise<void>;

/** What every part of one pool works with: the shared dependencies and the pool's id. */
export interface PoolContext {
  db: Kysely<DB>;
  clock: Clock;
  hasher: PasswordHasher;
  poolId: string;
  limits: IdentityLimits;
  /** An account's key in the per-account limits: the pool id and the username. */
  accountKey(username: string): string;
  /** The pool's account by name, or UserNotFound. */
  mustFind(username: string): Promise<IdentityUser>;
}
