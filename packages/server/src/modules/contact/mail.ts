import { escapeHtml, type MailMessage } from '../mail/mailer.js';

export function contactMail(to: string, from: string, message: string): MailMessage {
  return {
    to,
    replyTo: from,
    subject: `Contact message from ${from}`,
    text: `${from} wrote through the Howl contact form:\n\n${message}\n`,
    html: `<p>${escapeHtml(from)} wrote through the Howl contact form:</p><pre style="white-space:pre-wrap;font-family:inherit">${escapeHtml(message)}</pre>`,
  };
}

/** Every newsletter mail ends with an unsubscribe link; this builds them all. */
function newsletterMail(to: string, subject: string, body: string, unsubscribeUrl: string): MailMessage {
  return {
    to,
    subject,
    text: `${body}\n\n--\nTo stop receiving the Howl newsletter, open ${unsubscribeUrl}\n`,
    html: `${body
      .split('\n\n')
      .map((p) => `<p>${escapeHtml(p)}</p>`)
      .join(
        '',
      )}<hr><p style="font-size:12px">To stop receiving the Howl newsletter, <a href="${escapeHtml(unsubscribeUrl)}">unsubscribe</a>.</p>`,
    // RFC 8058: mail clients may unsubscribe with one POST to this address, no page in between.
    headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

export function newsletterConfirmMail(to: string, confirmUrl: string, unsubscribeUrl: string): MailMessage {
  return newsletterMail(
    to,
    'Confirm your Howl newsletter subscription',
    `Someone, hopefully you, asked to receive the Howl newsletter (at most one mail a month) at this address.\n\nTo confirm, open ${confirmUrl}\n\nIf it was not you, ignore this mail and nothing more will be sent.`,
    unsubscribeUrl,
  );
}
