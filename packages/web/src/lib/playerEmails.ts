import { CODE_PLACEHOLDER, SITE_CODE_PLACEHOLDER } from '@howl/contract';

/**
 * The server keeps the one-time code's place in a mail body as `{{code}}`; the site shows it as
 * `@@@@`. Line breaks stay line breaks both ways.
 *
 * @example toSiteText('Your code: {{code}}') // 'Your code: @@@@'
 */
export const toSiteText = (text: string) => text.replaceAll(CODE_PLACEHOLDER, SITE_CODE_PLACEHOLDER);

/**
 * The editor's text as the server stores it: `@@@@` back to `{{code}}`, and any `<br>` tag typed
 * into the editor as a line break.
 *
 * @example toServerText('Line one<br>Your code: @@@@') // 'Line one\nYour code: {{code}}'
 */
export const toServerText = (text: string) =>
  text.replace(/<br\s*\/?>/gi, '\n').replaceAll(SITE_CODE_PLACEHOLDER, CODE_PLACEHOLDER);

/** Whether a body still says where the code goes (advisory: the server appends the code otherwise). */
export const hasCodePlaceholder = (text: string) => text.includes(SITE_CODE_PLACEHOLDER);
