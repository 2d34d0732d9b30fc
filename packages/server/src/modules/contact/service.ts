import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { contactErrors } from './errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId, newToken, sha256 } from '../../lib/tokens.js';
import type { LimiterFactory } from '../../lib/rate-limits.js';
import type { Mailer } from '../mail/mailer.js';
import { contactMail, newsletterConfirmMail } from './mail.js';
import * as store from './store.js';

/** How long a newsletter confirmation link works. */
const NEWSLETTER_CONFIRM_TTL_MS = 7 * 24 * 3_600_000;

export interface ContactDeps {
  db: Kysely<DB>;
  clock: Clock;
  mailer: Mailer;
  supportEmail: string;
  publicUrl: string;
  limiters: LimiterFactory;
  /** Where failures of mail sent after answering are reported. */
  logError(err: unknown, message: string): void;
}

/** Confirmation mails one address may receive a day, however many IPs ask. */
const NEWSLETTER_MAILS_PER_ADDRESS_PER_DAY = 3;

/** The contact form (mailed to support, reply-to the sender) and the newsletter's double opt-in. */
export function createContact(deps: ContactDeps) {
  const { db, clock, mailer } = deps;
  const perAddress = deps.limiters.create({
    name: 'newsletter-address',
    points: NEWSLETTER_MAILS_PER_ADDRESS_PER_DAY,
    durationSeconds: 86_400,
  });
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
        throw contactErrors.mailFailed(cause);
      }
    },

    /**
     * Starts (or restarts) a double opt-in: a pending subscription and a mail with the link that
     * confirms it. The answer and its timing are the same whatever the address's state: a confirmed
     * address gets no mail, an address past its daily mails gets none either, and the mail goes out
     * after the answer.
     */
    async subscribe(email: string): Promise<void> {
      const existing = await store.findSubscription(db, email);
      if (existing?.state === 'confirmed') return;
      if (
        !(await perAddress.consume(email).then(
          () => true,
          () => false,
        ))
      )
        return;
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
      const mail = newsletterConfirmMail(
        email,
        link('/api/newsletter/confirm', token),
        link('/api/newsletter/unsubscribe', unsubscribeToken),
      );
      void mailer.send(mail).catch((err: unknown) => deps.logError(err, 'newsletter confirmation mail failed'));
    },

    /** True when the token confirmed a subscription. */
    async confirm(token: string): Promise<boolean> {
      return (await store.confirmSubscription(db, sha256(token), clock.now())) !== undefined;
    },

    unsubscribe: (token: string) => store.unsubscribe(db, token, clock.now()),

    /** Deletes pending subscriptions whose confirmation link has expired, `batch` rows per statement; answers how many went. */
    async purgeExpired(batch: number): Promise<number> {
      const now = clock.now();
      let total = 0;
      for (;;) {
        const deleted = await store.deleteExpiredPending(db, now, batch);
        total += deleted;
        if (deleted < batch) return total;
      }
    },
  };
}

export type Contact = ReturnType<typeof createContact>;
