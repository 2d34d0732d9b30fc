import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId, newToken, sha256 } from '../../lib/tokens.js';
import type { Mailer } from '../mail/mailer.js';
import { contactMail, newsletterConfirmMail } from './mail.js';
import * as store from './store.js';

/** How long a newsletter confirmation link works. */
export const NEWSLETTER_CONFIRM_TTL_MS = 7 * 24 * 3_600_000;

export interface ContactDeps {
  db: Kysely<DB>;
  clock: Clock;
  mailer: Mailer;
  supportEmail: string;
  publicUrl: string;
}

const mailFailed = (cause: unknown) =>
  new AppError(503, 'ServiceUnavailable', 'We could not send your message right now. Please try again in a moment.', {
    cause,
  });

/** The contact form (mailed to support, reply-to the sender) and the newsletter's double opt-in. */
export function createContact(deps: ContactDeps) {
  const { db, clock, mailer } = deps;
  const link = (path: string, token: string) => `${deps.publicUrl}${path}?token=${encodeURIComponent(token)}`;

  return {
    /** Stores the message and mails it to support; if the mail fails, nothing is kept and the sender can retry. */
    async sendMessage(input: { email: string; message: string; developerId: string | null }): Promise<void> {
      const id = newId();
      await store.insertContactMessage(db, {
        id,
        email: input.email,
        message: input.message,
        developer_id: input.developerId,
        created_at: clock.now(),
      });
      try {
        await mailer.send(contactMail(deps.supportEmail, input.email, input.message));
      } catch (cause) {
        await store.deleteContactMessage(db, id);
        throw mailFailed(cause);
      }
    },

    /**
     * Starts (or restarts) a double opt-in: a pending subscription and a mail with the link that
     * confirms it. A confirmed address gets no mail; the answer is the same either way.
     */
    async subscribe(email: string): Promise<void> {
      const existing = await store.findSubscription(db, email);
      if (existing?.state === 'confirmed') return;
      const token = newToken();
      const now = clock.now();
      const unsubscribeToken = existing?.unsubscribe_token ?? newToken();
      await store.savePendingSubscription(db, {
        email,
        state: 'pending',
        confirm_token_hash: sha256(token),
        confirm_expires_at: now + NEWSLETTER_CONFIRM_TTL_MS,
        unsubscribe_token: unsubscribeToken,
        created_at: now,
        updated_at: now,
      });
      try {
        await mailer.send(
          newsletterConfirmMail(
            email,
            link('/api/newsletter/confirm', token),
            link('/api/newsletter/unsubscribe', unsubscribeToken),
          ),
        );
      } catch (cause) {
        throw mailFailed(cause);
      }
    },

    /** True when the token confirmed a subscription. */
    async confirm(token: string): Promise<boolean> {
      return (await store.confirmSubscription(db, sha256(token), clock.now())) !== undefined;
    },

    unsubscribe: (token: string) => store.unsubscribe(db, token, clock.now()),
  };
}

export type Contact = ReturnType<typeof createContact>;
