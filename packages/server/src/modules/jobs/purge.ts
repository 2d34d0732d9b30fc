import type { Contact } from '../contact/service.js';
import type { Identity } from '../identity/service.js';

/** How often expired rows are deleted, by one process of all that share the database. */
export const PURGE_EVERY_MS = 10 * 60_000;

/** Rows of one kind one purge statement deletes at most, so no purge holds a big lock. */
const PURGE_BATCH = 500;

/** Sessions, saved sessions and codes, as identity counts them. */
type PurgedIdentityRows = Awaited<ReturnType<Identity['purgeExpired']>>;

export interface PurgedEverything extends PurgedIdentityRows {
  /** Newsletter subscriptions never confirmed whose confirmation link expired. */
  pendingSubscriptions: number;
}

/** Everything that expires: sessions, saved sessions and codes, and unconfirmed newsletter subscriptions. */
export function purgeExpired(deps: { identity: Identity; contact: Contact }) {
  return async (opts: { batchSize?: number } = {}): Promise<PurgedEverything> => {
    const batch = opts.batchSize ?? PURGE_BATCH;
    const purged = await deps.identity.purgeExpired(batch);
    return { ...purged, pendingSubscriptions: await deps.contact.purgeExpired(batch) };
  };
}
