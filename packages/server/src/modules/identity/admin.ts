import { lockOrder } from '../../db/dialect-sql.js';
import { againOnTakenKey } from '../../db/errors.js';
import { newId } from '../../lib/tokens.js';
import { nextTurn } from '../../lib/turn.js';
import type { PoolContext, SaveProfile } from './context.js';
import { identityErrors as E } from './errors.js';
import type { IdentityUser } from './identity.table.js';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { meetsPasswordPolicy } from './password-policy.js';
import * as store from './store.js';

/**
 * What an imported account stores instead of a password hash: no password verifies against it (the
 * hasher answers false for what is not an argon2 hash), so only a reset by email sets one.
 */
export const NO_PASSWORD = '!imported-without-password';

/** Accounts one import transaction creates at most: other requests are answered between them. */
export const IMPORT_ACCOUNTS_PER_TRANSACTION = 500;

/** An account brought from another service, with its name, address, state and creation time (epoch ms). */
export interface ImportedAccount {
  username: string;
  email: string | null;
  enabled: boolean;
  createdAt: number;
}

/** A pool owner's tools (the dashboard): look up, list, disable, delete, set a password, import. */
export function poolAdmin({ db, clock, hasher, poolId, mustFind, limits, accountKey }: PoolContext) {
  return {
    /**
     * Creates accounts brought from another service, with no usable password and in
     * RESET_REQUIRED: the player sets one with the emailed reset code. Names that already have an
     * account (or come twice) are left as they are and answered as `skipped`. They are written in
     * transactions of IMPORT_ACCOUNTS_PER_TRANSACTION, with a turn of the event loop between, each
     * starting with `hold` (the pool's owner, a game, must still exist); a second run skips what a
     * first one created.
     */
    async importWithoutPasswords(
      accounts: ImportedAccount[],
      hold: (trx: Transaction<DB>) => Promise<void>,
    ): Promise<{ created: IdentityUser[]; skipped: number }> {
      const seen = new Set<string>();
      const created: IdentityUser[] = [];
      for (let i = 0; i < accounts.length; i += IMPORT_ACCOUNTS_PER_TRANSACTION) {
        const batch = accounts.slice(i, i + IMPORT_ACCOUNTS_PER_TRANSACTION);
        const now = clock.now();
        // A name registered between the check and the insert: the next run's check sees it.
        created.push(
          ...(await againOnTakenKey(() =>
            db.transaction().execute(async (trx) => {
              await hold(trx);
              const taken = await store.takenUsernames(trx, poolId, [...new Set(batch.map((a) => a.username))]);
              const users: IdentityUser[] = [];
              // Names of earlier batches count as taken; this batch's only once it commits.
              for (const name of seen) taken.add(name);
              for (const a of batch) {
                if (taken.has(a.username)) continue;
                taken.add(a.username);
                users.push({
                  id: newId(),
                  pool_id: poolId,
                  username: a.username,
                  email: a.email,
                  password_hash: NO_PASSWORD,
                  status: 'RESET_REQUIRED',
                  enabled: a.enabled ? 1 : 0,
                  created_at: a.createdAt,
                  updated_at: now,
                  session_version: 0,
                });
              }
              // In name order: two imports of overlapping names (two processes) then wait on each other's names in one order, never in a circle.
              await store.insertUsers(
                trx,
                [...users].sort((a, b) => lockOrder(a.username, b.username)),
              );
              return users;
            }),
          )),
        );
        for (const a of batch) seen.add(a.username);
        await nextTurn();
      }
      return { created, skipped: accounts.length - created.length };
    },

    find: (username: string) => store.findUser(db, poolId, username),
    list: (limit: number, afterUsername?: string) => store.listUsers(db, poolId, limit, afterUsername),

    /** Disabling ends every session at once and refuses sign-in; enabling lets the account back in. */
    async setEnabled(username: string, enabled: boolean): Promise<IdentityUser> {
      const user = await mustFind(username);
      await db.transaction().execute(async (trx) => {
        await store.updateUser(trx, user.id, { enabled: enabled ? 1 : 0 }, clock.now());
        if (!enabled) await store.endUserSessions(trx, user.id);
      });
      return { ...user, enabled: enabled ? 1 : 0 };
    },

    /** Sets a password under the policy and ends every session; a pending reset is done with. */
    async setPassword(username: string, password: string): Promise<void> {
      const user = await mustFind(username);
      if (!meetsPasswordPolicy(password)) throw E.invalidPassword('password');
      const passwordHash = await hasher.hash(password);
      const status = user.status === 'UNCONFIRMED' ? user.status : 'CONFIRMED';
      await db.transaction().execute(async (trx) => {
        await store.updateUser(trx, user.id, { password_hash: passwordHash, status }, clock.now());
        await store.endUserSessions(trx, user.id);
      });
      await limits.forgetSignInFailures(accountKey(user.username));
    },

    /** Deletes the account with its sessions and codes; `alsoDelete` removes the feature's own rows in the same transaction. */
    async remove(username: string, alsoDelete?: SaveProfile): Promise<IdentityUser> {
      const user = await mustFind(username);
      await db.transaction().execute(async (trx) => {
        // Deleted since it was found (and the name perhaps taken again): nothing of it to delete.
        if (!(await store.lockUser(trx, user.id))) throw E.userNotFound();
        await alsoDelete?.(trx, user);
        await store.deleteUser(trx, user.id);
      });
      return user;
    },
  };
}
