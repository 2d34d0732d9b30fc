import { CODE_PLACEHOLDER, SITE_CODE_PLACEHOLDER, type PlayerEmailSettings } from '@howl/contract';
import type { CodePurpose } from '../identity/identity.table.js';
import { escapeHtml, type MailMessage } from '../mail/mailer.js';
import type { PlayerEmailTemplateTable } from './players.table.js';

const PLAYER_NAME_PLACEHOLDER = '{{player_name}}';
type Template = Omit<PlayerEmailTemplateTable, 'game_id' | 'updated_at'>;

/** What a game's players get when its developer has not written their own mails. */
function defaultTemplate(gameName: string): Record<Exclude<keyof Template, 'reply_to'>, string> {
  return {
    confirmation_subject: `Your ${gameName} confirmation code`,
    confirmation_body: [
      `Welcome to ${gameName}, ${PLAYER_NAME_PLACEHOLDER}!`,
      '',
      `Your confirmation code is: ${CODE_PLACEHOLDER}`,
      '',
      'It is valid for 24 hours. If you did not create this account, you can ignore this message.',
    ].join('\n'),
    reset_subject: `Your ${gameName} password reset code`,
    reset_body: [
      `Hello ${PLAYER_NAME_PLACEHOLDER},`,
      '',
      `Your password reset code is: ${CODE_PLACEHOLDER}`,
      '',
      'It is valid for 15 minutes. Until you set a new password with it, the old one no longer works.',
    ].join('\n'),
  };
}

/** The mails as they go out: the game's own text where set, the defaults elsewhere. */
export function effectiveTemplate(gameName: string, stored: Template | undefined): PlayerEmailSettings {
  const defaults = defaultTemplate(gameName);
  return {
    confirmation_subject: stored?.confirmation_subject ?? defaults.confirmation_subject,
    confirmation_body: stored?.confirmation_body ?? defaults.confirmation_body,
    reset_subject: stored?.reset_subject ?? defaults.reset_subject,
    reset_body: stored?.reset_body ?? defaults.reset_body,
    reply_to: stored?.reply_to ?? null,
    customized:
      stored !== undefined &&
      [
        stored.confirmation_subject,
        stored.confirmation_body,
        stored.reset_subject,
        stored.reset_body,
        stored.reply_to,
      ].some((v) => v !== null),
  };
}

/**
 * A body as stored: the site's @@@@ becomes the code placeholder, and the br tags the site's editor
 * writes become line breaks. Empty means the default.
 */
export function normalizeBody(body: string | null | undefined): string | null | undefined {
  if (body === undefined || body === null) return body;
  const text = body
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/\r\n?/g, '\n')
    .replaceAll(SITE_CODE_PLACEHOLDER, CODE_PLACEHOLDER);
  return text.trim() === '' ? null : text;
}

/** One code mail, in the game's words. A body without the placeholder still gets the code, at the end. */
export function playerCodeMail(
  settings: PlayerEmailSettings,
  to: string,
  playerName: string,
  purpose: CodePurpose,
  code: string,
): MailMessage {
  const [subject, body] =
    purpose === 'confirm_sign_up'
      ? [settings.confirmation_subject, settings.confirmation_body]
      : [settings.reset_subject, settings.reset_body];
  // Replaced by functions: a `$&` or `` $` `` in a player's name is text, not a replacement pattern.
  const fill = (s: string) =>
    s.replaceAll(CODE_PLACEHOLDER, () => code).replaceAll(PLAYER_NAME_PLACEHOLDER, () => playerName);
  const text = body.includes(CODE_PLACEHOLDER) ? fill(body) : `${fill(body)}\n\nYour code: ${code}`;
  return {
    to,
    subject: fill(subject).replace(/\s+/g, ' '),
    text,
    html: `<p>${escapeHtml(text).replaceAll('\n', '<br>')}</p>`,
    ...(settings.reply_to ? { replyTo: settings.reply_to } : {}),
  };
}
