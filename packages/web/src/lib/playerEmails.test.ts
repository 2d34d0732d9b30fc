import { expect, it } from 'vitest';
import { hasCodePlaceholder, toServerText, toSiteText } from './playerEmails.js';

it('shows {{code}} as @@@@ and keeps line breaks and {{player_name}}', () => {
  expect(toSiteText('Hi {{player_name}},\n\nYour code: {{code}}\n{{code}} again')).toBe(
    'Hi {{player_name}},\n\nYour code: @@@@\n@@@@ again',
  );
});

it('sends @@@@ back as {{code}}, and br tags as line breaks', () => {
  expect(toServerText('Line one<br>Your code: @@@@<BR/>End\nLast')).toBe('Line one\nYour code: {{code}}\nEnd\nLast');
  expect(toServerText(toSiteText('A {{code}}\nB'))).toBe('A {{code}}\nB');
});

it('tells whether a body still holds @@@@', () => {
  expect(hasCodePlaceholder('Code: @@@@')).toBe(true);
  expect(hasCodePlaceholder('Code: {{code}}')).toBe(false);
});
