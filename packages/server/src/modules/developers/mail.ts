import type { CodePurpose } from '../identity/identity.table.js';
import { escapeHtml, type MailMessage } from '../mail/mailer.js';

/** The developer pool's code mails. */
export function developerCodeMail(to: string, purpose: CodePurpose, code: string, supportEmail: string): MailMessage {
  const intro =
    purpose === 'confirm_sign_up'
      ? {
          subject: 'Your Howl confirmation code',
          lead: 'Welcome to Howl! Your confirmation code is',
          valid: '24 hours',
        }
      : { subject: 'Your Howl password reset code', lead: 'Your password reset code is', valid: '15 minutes' };
  const text = [
    `${intro.lead}: ${code}`,
    '',
    `It is valid for ${intro.valid}. If you did not ask for it, you can ignore this message.`,
    `Questions? Write to ${supportEmail}.`,
  ].join('\n');
  const html = `<p>${escapeHtml(intro.lead)}:</p><p style="font-size:24px;font-weight:bold;letter-spacing:4px">${code}</p><p>It is valid for ${intro.valid}. If you did not ask for it, you can ignore this message.</p><p>Questions? Write to ${escapeHtml(supportEmail)}.</p>`;
  return { to, subject: intro.subject, text, html };
}
