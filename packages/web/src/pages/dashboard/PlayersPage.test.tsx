// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.js';
import { json } from '../../test/server.js';
import { game, withGames } from '../../test/sessions.js';
import { PlayersPage } from './PlayersPage.js';

const GAME = 'game-1';
const players = [
  {
    id: 'a',
    player_name: 'amy',
    email: 'amy@example.com',
    enabled: true,
    state: 'CONFIRMED',
    created_at: 1_795_000_000,
    player_data: { level: 3 },
  },
  { id: null, player_name: 'guest', email: null, enabled: false, state: null, created_at: null, player_data: null },
];

// The server is outside a component test: fetch answers as the console API would, and records the calls.
let calls: { method: string; url: string; body?: unknown }[];
let failNext: { status: number; code: string; message: string } | undefined;
let listed: typeof players;
let authEnabled: boolean;
let paged: boolean;
let nextPageFails: boolean;
beforeEach(() => {
  calls = [];
  paged = false;
  nextPageFails = false;
  failNext = undefined;
  listed = players;
  authEnabled = true;
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    calls.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined });
    if (method !== 'GET' && failNext) {
      const { status, ...error } = failNext;
      return json({ error }, status);
    }
    if (url.includes('/player-auth'))
      return json({
        enabled: authEnabled,
        reg_type: 'email_un_pwd',
        email_confirmation: true,
        session_duration_seconds: 3600,
        saved_session_days: 30,
        require_player_session: false,
      });
    if (url.includes('/players?') && url.includes('cursor=page2')) {
      if (nextPageFails) return json({ error: { code: 'InternalError', message: 'The server had a problem.' } }, 500);
      return json({ players: [{ ...players[0]!, id: 'z', player_name: 'zed' }], cursor: null });
    }
    if (url.includes('/players?')) return json({ players: listed, cursor: paged ? 'page2' : null });
    const toggled = /\/players\/([^/]+)\/(disable|enable)$/.exec(url);
    if (toggled) return json({ player_name: decodeURIComponent(toggled[1]!), enabled: toggled[2] === 'enable' });
    return json({ ok: true });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  renderWithProviders(<PlayersPage />, { session: withGames(game(GAME, 'Wolf Run', '2026-11-01T00:00:00.000Z')) });
}

const row = async (name: string) => (await screen.findByText(name)).closest('tr')!;

describe('the players page', () => {
  it('lists players with status and state, and offers actions only to accounts', async () => {
    renderPage();
    const amy = await row('amy');
    expect(within(amy).getByText('Enabled (CONFIRMED)')).toBeInTheDocument();
    expect(within(amy).getByRole('button', { name: 'Disable' })).toBeInTheDocument();
    const guest = await row('guest');
    expect(within(guest).queryByRole('button', { name: 'Change password' })).toBeNull();
    expect(within(guest).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByText('Load more players')).toBeNull();
  });

  it('keeps the players already loaded when the next page fails, and tries that page again', async () => {
    paged = true;
    nextPageFails = true;
    renderPage();
    await row('amy');
    fireEvent.click(screen.getByRole('button', { name: 'Load more players' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The server had a problem.');
    expect(screen.getByText('amy')).toBeInTheDocument();
    expect(screen.getByText('guest')).toBeInTheDocument();
    nextPageFails = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await row('zed')).toBeInTheDocument();
    expect(screen.getByText('amy')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('opens the data modal with pretty-printed data, or says there is none', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Player data of amy' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('"level": 3');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.click(screen.getByRole('button', { name: 'Player data of guest' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('No player data for this player');
  });

  it('asks for a password before sending one, then closes on success', async () => {
    renderPage();
    fireEvent.click(within(await row('amy')).getByRole('button', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(dialog).toHaveTextContent('Please enter a new password for this player.');
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('New password for amy'), { target: { value: 'Fresh-Pass9' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.at(-1)).toEqual({
      method: 'PUT',
      url: `/api/games/${GAME}/players/amy/password`,
      body: { password: 'Fresh-Pass9' },
    });
  });

  it("shows the server's error inside the modal and keeps it open", async () => {
    renderPage();
    failNext = { status: 400, code: 'InvalidPassword', message: 'Passwords must have at least 8 characters.' };
    fireEvent.click(within(await row('amy')).getByRole('button', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('New password for amy'), { target: { value: 'weak' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Passwords must have at least 8 characters.');
  });

  it('disables a player and updates the row at once; then offers Enable', async () => {
    renderPage();
    fireEvent.click(within(await row('amy')).getByRole('button', { name: 'Disable' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disable player' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const amy = await row('amy');
    expect(within(amy).getByText('Disabled (CONFIRMED)')).toBeInTheDocument();
    expect(within(amy).getByRole('button', { name: 'Enable' })).toBeInTheDocument();
    expect(calls.at(-1)).toMatchObject({ method: 'POST', url: `/api/games/${GAME}/players/amy/disable` });
  });

  it('deletes a player and removes the row', async () => {
    renderPage();
    fireEvent.click(within(await row('amy')).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete player' }));
    await waitFor(() => expect(screen.queryByText('amy')).toBeNull());
    expect(calls.at(-1)).toMatchObject({ method: 'DELETE', url: `/api/games/${GAME}/players/amy` });
  });

  it('deletes the data of a name that has data but no account', async () => {
    renderPage();
    fireEvent.click(within(await row('guest')).getByRole('button', { name: 'Delete data' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      "Delete the player data of guest? The name has no account; its data and its characters' data are removed, its scores stay.",
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete player data' }));
    await waitFor(() => expect(screen.queryByText('guest')).toBeNull());
    expect(calls.at(-1)).toMatchObject({ method: 'DELETE', url: `/api/games/${GAME}/players/guest` });
    expect(screen.getByText('amy')).toBeInTheDocument();
  });

  it('says why the list may be empty when player authentication is off, and links to the setting', async () => {
    listed = [];
    authEnabled = false;
    renderPage();
    expect(await screen.findByText('No players yet!')).toBeInTheDocument();
    expect(
      await screen.findByText(
        'Player authentication is off for this game, so no player can register. Names that save player data are listed here too.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Player authentication settings' })).toHaveAttribute(
      'href',
      '/playerauth#authSettings',
    );
  });

  it('says no player registered or saved data yet when player authentication is on', async () => {
    listed = [];
    renderPage();
    expect(await screen.findByText('No players yet!')).toBeInTheDocument();
    expect(
      await screen.findByText('No player has registered and no name has saved player data yet.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Player authentication settings' })).toBeInTheDocument();
  });
});
