import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ContactMessageTable, NewsletterSubscriptionTable } from './contact.table.js';

export async function insertContactMessage(db: Kysely<DB>, message: ContactMessageTable): Promise<void> {
  await db.insertInto('contact_messages').values(message).execute();
}

export async function deleteContactMessage(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('contact_messages').where('id', '=', id).execute();
}

export function findSubscription(db: Kysely<DB>, email: string) {
  return db.selectFrom('newsletter_subscriptions').selectAll().where('email', '=', email).executeTakeFirst();
}

/** Creates or resets a subscription to pending with a new confirmation token. */
export async function savePendingSubscription(db: Kysely<DB>, row: NewsletterSubscriptionTable): Promise<void> {
  await db
    .insertInto('newsletter_subscriptions')
    .values(row)
    .onConflict((oc) =>
      oc.column('email').doUpdateSet({
        state: 'pending',
        confirm_token_hash: row.confirm_token_hash,
        confirm_expires_at: row.confirm_expires_at,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

/** Confirms the subscription holding this live token; answers its email, or undefined for an unknown, used or expired token. */
export async function confirmSubscription(db: Kysely<DB>, tokenHash: string, now: number): Promise<string | undefined> {
  const row = await db
    .updateTable('newsletter_subscriptions')
    .set({ state: 'confirmed', confirm_token_hash: null, confirm_expires_at: null, updated_at: now })
    .where('confirm_token_hash', '=', tokenHash)
    .where('confirm_expires_at', '>', now)
    .returning('email')
    .executeTakeFirst();
  return row?.email;
}

export async function unsubscribe(db: Kysely<DB>, token: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('newsletter_subscriptions')
    .set({ state: 'unsubscribed', confirm_token_hash: null, confirm_expires_at: null, updated_at: now })
    .where('unsubscribe_token', '=', token)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Deletes up to `batch` subscriptions never confirmed whose link has expired: an address nobody confirmed is not kept. */
export async function deleteExpiredPending(db: Kysely<DB>, now: number, batch: number): Promise<number> {
  const res = await db
    .deleteFrom('newsletter_subscriptions')
    .where('email', 'in', (eb) =>
      eb
        .selectFrom('newsletter_subscriptions')
        .select('email')
        .where('state', '=', 'pending')
        .where('confirm_expires_at', '<=', now)
        .limit(batch),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
