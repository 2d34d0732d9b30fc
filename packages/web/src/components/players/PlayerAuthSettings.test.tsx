// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { PlayerAuthSettings as Settings, PlayerEmailSettings } from '@howl/contract';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.js';
import { json } from '../../test/server.js';
import { describeDuration, PlayerAuthSettings } from './PlayerAuthSettings.js';

const DEFAULTS: Settings = {
  enabled: false,
  reg_type: 'email_un_pwd',
  email_confirmation: true,
  session_duration_seconds: 3600,
  saved_session_days: 30,
  require_player_session: false,
};
const EMAILS: PlayerEmailSettings = {
  confirmation_subject: 'Your Wolf Run confirmation code',
  confirmation_body: 'Welcome, {{player_name}}!\n\nYour confirmation code is: {{code}}',
  reset_subject: 'Your Wolf Run password reset code',
  reset_body: 'Your password reset code is: {{code}}',
  reply_to: null,
  customized: false,
};

// The Howl server is not part of a component test: a stand-in for fetch keeps the settings as the
// console API does (docs/players.md: a PUT changes only the fields it sends) and records every call.
let settings: Settings;
let failNextPut: string | undefined;
const calls: { method: string; path: string; body?: Record<string, unknown> }[] = [];
beforeEach(() => {
  calls.length = 0;
  settings = { ...DEFAULTS };
  failNextPut = undefined;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      const body = init.body ? (JSON.parse(init.body as string) as Record<string, unknown>) : undefined;
      calls.push({ method, path, body });
      if (path.endsWith('/emails')) return json(EMAILS);
      if (method === 'PUT') {
        if (failNextPut) {
          const message = failNextPut;
          failNextPut = undefined;
          return json({ error: { code: 'InternalError', message } }, 500);
        }
        settings = { ...settings, ...body };
      }
      return json(settings);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPanel() {
  renderWithProviders(<PlayerAuthSettings gameId="g1" />);
}
const puts = () => calls.filter((c) => c.method === 'PUT');

describe('the player authentication checkbox', () => {
  it('says disabled and hides the registration options and email settings while off', async () => {
    renderPanel();
    expect(screen.getByRole('status')).toHaveTextContent('Loading your player authentication settings…');
    const box = await screen.findByRole('checkbox', { name: 'Player authentication is disabled' });
    expect(box).not.toBeChecked();
    expect(screen.queryByRole('group', { name: 'Registration type' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: /Email confirmation/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Customise emails' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Session duration (seconds)')).not.toBeInTheDocument();
    expect(calls).toEqual([{ method: 'GET', path: '/api/games/g1/player-auth', body: undefined }]);
  });

  it('sends only {enabled: true} when ticked, then says enabled and shows the options', async () => {
    const user = userEvent.setup();
    renderPanel();
    await user.click(await screen.findByRole('checkbox', { name: 'Player authentication is disabled' }));
    expect(await screen.findByRole('checkbox', { name: 'Player authentication is enabled' })).toBeChecked();
    expect(puts()).toEqual([{ method: 'PUT', path: '/api/games/g1/player-auth', body: { enabled: true } }]);
    expect(screen.getByRole('group', { name: 'Registration type' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Email confirmation is enabled' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Customise emails' })).toBeInTheDocument();
  });

  it('shows progress while saving and the error when the change fails, keeping the old value', async () => {
    const user = userEvent.setup();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    failNextPut = 'The database is busy.';
    const realFetch = fetch;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (path: string, init: RequestInit) => {
        if (init.method === 'PUT') await gate;
        return realFetch(path, init);
      }),
    );
    renderPanel();
    const box = await screen.findByRole('checkbox', { name: 'Player authentication is disabled' });
    await user.click(box);
    expect(await screen.findByText('Saving…')).toBeInTheDocument();
    expect(box).toHaveAttribute('aria-disabled', 'true');
    await user.click(box); // ignored while saving
    release();
    expect(await screen.findByRole('alert')).toHaveTextContent('Your change was not saved - The database is busy.');
    expect(puts()).toHaveLength(1);
    expect(screen.getByRole('checkbox', { name: 'Player authentication is disabled' })).not.toBeChecked();
  });
});

describe('with player authentication on', () => {
  beforeEach(() => {
    settings.enabled = true;
  });

  it('offers both registration types and sends only reg_type when one is chosen', async () => {
    const user = userEvent.setup();
    renderPanel();
    const group = await screen.findByRole('group', { name: 'Registration type' });
    expect(within(group).getByRole('radio', { name: /Email \/ username \/ password/ })).toBeChecked();
    await user.click(within(group).getByRole('radio', { name: /^Username \/ password/ }));
    await waitFor(() => expect(within(group).getByRole('radio', { name: /^Username \/ password/ })).toBeChecked());
    expect(puts().map((c) => c.body)).toEqual([{ reg_type: 'un_pwd' }]);
  });

  it('hides the email confirmation toggle and the email form for un_pwd', async () => {
    settings.reg_type = 'un_pwd';
    renderPanel();
    await screen.findByRole('group', { name: 'Registration type' });
    expect(screen.queryByRole('checkbox', { name: /Email confirmation/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Customise emails' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: "Players' emails" })).not.toBeInTheDocument();
    // The session settings stay: they apply to both registration types.
    expect(screen.getByLabelText('Session duration (seconds)')).toHaveValue(3600);
  });

  it('sends only email_confirmation when that toggle changes, and its label follows', async () => {
    const user = userEvent.setup();
    renderPanel();
    await user.click(await screen.findByRole('checkbox', { name: 'Email confirmation is enabled' }));
    expect(await screen.findByRole('checkbox', { name: 'Email confirmation is disabled' })).not.toBeChecked();
    expect(puts().map((c) => c.body)).toEqual([{ email_confirmation: false }]);
  });

  it('sends only require_player_session when that toggle changes', async () => {
    const user = userEvent.setup();
    renderPanel();
    const box = await screen.findByRole('checkbox', { name: /Require a player session/ });
    await user.click(box);
    await waitFor(() => expect(box).toBeChecked());
    expect(puts().map((c) => c.body)).toEqual([{ require_player_session: true }]);
  });

  it('saves only the session fields that changed, after checking their ranges', async () => {
    const user = userEvent.setup();
    renderPanel();
    const days = await screen.findByLabelText('Saved session days');
    await user.clear(days);
    await user.type(days, '400');
    await user.click(screen.getByRole('button', { name: 'Save session settings' }));
    expect(screen.getByText('Please enter a whole number of days from 1 to 365.')).toBeInTheDocument();
    expect(puts()).toEqual([]);

    await user.clear(days);
    await user.type(days, '90');
    await user.click(screen.getByRole('button', { name: 'Save session settings' }));
    expect(await screen.findByText('Session settings saved.')).toBeInTheDocument();
    expect(puts().map((c) => c.body)).toEqual([{ saved_session_days: 90 }]);
    expect(screen.getByLabelText('Saved session days')).toHaveValue(90);
  });

  it('opens the email editor from the panel', async () => {
    const user = userEvent.setup();
    renderPanel();
    const open = await screen.findByRole('button', { name: 'Customise emails' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await user.click(open);
    expect(await screen.findByRole('form', { name: "Players' emails" })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close the email editor' })).toHaveAttribute('aria-expanded', 'true');
  });
});

it('describes a session duration in words', () => {
  expect(describeDuration(0)).toBe('Sessions never expire.');
  expect(describeDuration(3600)).toBe('Sessions last 1 hour.');
  expect(describeDuration(90_061)).toBe('Sessions last 1 day 1 hour.');
  expect(describeDuration(150)).toBe('Sessions last 2 minutes 30 seconds.');
});
