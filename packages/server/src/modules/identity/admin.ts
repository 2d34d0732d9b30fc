import type { PoolContext, SaveProfile } from './context.js';
import { identityErrors as E } from './errors.js';
import type { IdentityUser } from './identity.table.js';
import { meetsPasswordPolicy } from './password-policy.js';
import * as store from './store.js';

/** A pool owner's tools (the dashboard): look up, list, disable, delete, set a password. */
export function poolAdmin({ db, clock, hasher, poolId, mustFind }: PoolContext) {
  return {
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
    },

    /** Deletes the account with its sessions and codes; `alsoDelete` removes the feature's own rows in the same transaction. */
    async remove(username: string, alsoDelete?: SaveProfile): Promise<IdentityUser> {
      const user = await mustFind(username);
      await db.transaction().execute(async (trx) => {
        await alsoDelete?.(trx, user);
        await store.deleteUser(trx, user.id);
      });
      return user;
    },
  };
}
