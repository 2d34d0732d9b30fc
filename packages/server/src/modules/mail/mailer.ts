import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Real mail over SMTP (`SMTP_URL`); the sender is fixed by the server (`MAIL_FROM`). */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(m) {
      await transport.sendMail({
        from,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html,
        replyTo: m.replyTo,
        headers: m.headers,
      });
    },
    close: () => transport.close(),
  };
}

export interface OutboxMessage {
  from: string;
  reply_to: string | null;
  to: string;
  subject: string;
  text: string;
  sent_at: string;
}

/**
 * Without SMTP, mail is written to the log and kept here so a person trying Howl locally can read
 * their code at `GET /api/dev/outbox`. Development only: it lives in this process's memory.
 */
export function outboxMailer(
  log: FastifyBaseLogger,
  from: string,
  keep = 100,
): Mailer & { messages(): OutboxMessage[] } {
  const box: OutboxMessage[] = [];
  return {
    async send(m) {
      // The headers SMTP would send, so a custom reply address can be checked locally.
      const mail = { from, reply_to: m.replyTo ?? null, to: m.to, subject: m.subject, text: m.text };
      box.unshift({ ...mail, sent_at: new Date().toISOString() });
      box.length = Math.min(box.length, keep);
      log.info({ mail }, 'mail written to the development outbox (no SMTP_URL)');
    },
    close() {},
    messages: () => [...box],
  };
}

/** Escapes text for the HTML part of a mail. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
