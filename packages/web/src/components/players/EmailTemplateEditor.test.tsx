// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { PlayerEmailSettings } from '@howl/contract';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.js';
import { json } from '../../test/server.js';
import { EmailTemplateEditor } from './EmailTemplateEditor.js';

const DEFAULTS: PlayerEmailSettings = {
  confirmation_subject: 'Your Wolf Run confirmation code',
  confirmation_body: 'Welcome to Wolf Run, {{player_name}}!\n\nYour confirmation code is: {{code}}',
  reset_subject: 'Your Wolf Run password reset code',
  reset_body: 'Hello {{player_name}},\n\nYour password reset code is: {{code}}',
  reply_to: null,
  customized: false,
};

// The Howl server is not part of a component test: a stand-in for fetch answers as the console API
// documents (docs/players.md: bodies come back with {{code}}, null brings a default back) and
// records every call.
let stored: PlayerEmailSettings;
let failWith: { status: number; error: Record<string, string> } | undefined;
const calls: { method: string; path: string; body?: Record<string, string | null> }[] = [];
beforeEach(() => {
  calls.length = 0;
  stored = { ...DEFAULTS };
  failWith = undefined;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      const body = init.body ? (JSON.parse(init.body as string) as Record<string, string | null>) : undefined;
      calls.push({ method, path, body });
      if (method === 'PUT') {
        if (failWith) return json({ error: failWith.error }, failWith.status);
        const next: Record<string, unknown> = { ...stored };
        for (const [k, v] of Object.entries(body!)) {
          const key = k as Exclude<keyof PlayerEmailSettings, 'customized'>;
          next[key] = v === null || v === '' ? DEFAULTS[key] : v.replaceAll('@@@@', '{{code}}');
        }
        const customized = JSON.stringify({ ...next, customized: false }) !== JSON.stringify(DEFAULTS);
        stored = { ...(next as PlayerEmailSettings), customized };
      }
      return json(stored);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderEditor() {
  renderWithProviders(<EmailTemplateEditor gameId="g1" />);
}

it('shows the stored mails with the code placeholder as @@@@, line breaks kept', async () => {
  renderEditor();
  expect(screen.getByRole('status')).toHaveTextContent('Loading your emails…');
  expect(await screen.findByLabelText('Confirmation email text')).toHaveValue(
    'Welcome to Wolf Run, {{player_name}}!\n\nYour confirmation code is: @@@@',
  );
  expect(screen.getByLabelText('Password reset email text')).toHaveValue(
    'Hello {{player_name}},\n\nYour password reset code is: @@@@',
  );
  expect(screen.getByLabelText('Confirmation email subject')).toHaveValue('Your Wolf Run confirmation code');
  expect(screen.getByLabelText('Reply-to address')).toHaveValue('');
  expect(screen.getByText(/it is replaced by the player's one-time code/)).toBeInTheDocument();
});

it('sends @@@@ back as {{code}} with the line breaks, and says the settings were saved', async () => {
  const user = userEvent.setup();
  renderEditor();
  const body = await screen.findByLabelText('Confirmation email text');
  await user.clear(body);
  await user.type(body, 'Howl!{Enter}Code: @@@@{Enter}Bye');
  const subject = screen.getByLabelText('Password reset email subject');
  await user.clear(subject);
  await user.type(subject, 'Reset for {{{{player_name}}');
  await user.type(screen.getByLabelText('Reply-to address'), 'support@example.com');
  await user.click(screen.getByRole('button', { name: 'Save emails' }));

  expect(await screen.findByRole('status')).toHaveTextContent('Your email confirmation settings were saved.');
  expect(calls.at(-1)).toEqual({
    method: 'PUT',
    path: '/api/games/g1/player-auth/emails',
    body: {
      confirmation_subject: 'Your Wolf Run confirmation code',
      confirmation_body: 'Howl!\nCode: {{code}}\nBye',
      reset_subject: 'Reset for {{player_name}}',
      reset_body: 'Hello {{player_name}},\n\nYour password reset code is: {{code}}',
      reply_to: 'support@example.com',
    },
  });
  expect(stored.confirmation_body).toBe('Howl!\nCode: {{code}}\nBye');
  // Still shown as @@@@ after the save.
  expect(screen.getByLabelText('Confirmation email text')).toHaveValue('Howl!\nCode: @@@@\nBye');
});

it('warns, without refusing, when a body no longer holds @@@@', async () => {
  const user = userEvent.setup();
  renderEditor();
  const body = await screen.findByLabelText('Password reset email text');
  await user.clear(body);
  await user.type(body, 'No code here');
  expect(
    screen.getByText('This text has no @@@@: the code will be added at the end of the email.'),
  ).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Save emails' }));
  expect(await screen.findByText('Your email confirmation settings were saved.')).toBeInTheDocument();
  expect(calls.at(-1)?.body?.reset_body).toBe('No code here');
});

it("shows the server's error after 'There was an error saving your custom email data - '", async () => {
  const user = userEvent.setup();
  failWith = { status: 503, error: { code: 'ServiceUnavailable', message: 'Howl is busy. Please try again.' } };
  renderEditor();
  await screen.findByLabelText('Reply-to address');
  await user.click(screen.getByRole('button', { name: 'Save emails' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'There was an error saving your custom email data - Howl is busy. Please try again.',
  );
  expect(screen.queryByText('Your email confirmation settings were saved.')).not.toBeInTheDocument();
});

it('restores the default mails by sending null for every field', async () => {
  const user = userEvent.setup();
  stored = { ...DEFAULTS, confirmation_subject: 'Custom', reply_to: 'a@example.com', customized: true };
  renderEditor();
  expect(await screen.findByLabelText('Confirmation email subject')).toHaveValue('Custom');
  await user.click(screen.getByRole('button', { name: 'Restore the default emails' }));
  expect(await screen.findByText('Your email confirmation settings were saved.')).toBeInTheDocument();
  expect(calls.at(-1)?.body).toEqual({
    confirmation_subject: null,
    confirmation_body: null,
    reset_subject: null,
    reset_body: null,
    reply_to: null,
  });
  expect(screen.getByLabelText('Confirmation email subject')).toHaveValue('Your Wolf Run confirmation code');
  expect(screen.getByLabelText('Reply-to address')).toHaveValue('');
});
