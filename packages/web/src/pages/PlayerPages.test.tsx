// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { DeveloperSession } from '@howl/contract';
import { cleanup, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render.js';
import { json } from '../test/server.js';
import { developer, game, withGames } from '../test/sessions.js';
import { PlayerAuth } from './PlayerAuth.js';
import { PlayerData } from './PlayerData.js';

const SESSION = developer;
const WITH_GAME = withGames(game('g1', 'Wolf Run'));

// The Howl server is not part of a component test: a stand-in for fetch answers the session (or
// 401 when signed out) and the game's player authentication settings, as docs/api.md and
// docs/players.md describe.
let session: DeveloperSession | null;
beforeEach(() => {
  session = null;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string) => {
      if (path === '/api/auth/whoami') return json({ session: session ?? null });
      if (path === '/api/games/g1/player-auth') {
        return json({
          enabled: false,
          reg_type: 'email_un_pwd',
          email_confirmation: true,
          session_duration_seconds: 3600,
          saved_session_days: 30,
          require_player_session: false,
        });
      }
      return json({ error: { code: 'NotFound', message: 'Not found.' } }, 404);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage(page: ReactElement) {
  renderWithProviders(page);
}

describe.each([
  ['/playerauth', <PlayerAuth key="a" />],
  ['/playerdata', <PlayerData key="d" />],
])('%s', (_path, page) => {
  it('pitches to a visitor, with the way in and a way to ask', async () => {
    renderPage(page);
    expect(await screen.findByRole('heading', { name: 'Get started in under a minute' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login or create an account' })).toHaveAttribute('href', '/auth');
    expect(screen.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact');
  });

  it('asks a developer without a game to name one', async () => {
    session = SESSION;
    renderPage(page);
    expect(await screen.findByLabelText('Name of your game')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'On this page' })).not.toBeInTheDocument();
  });
});

it('shows the player account guide and the settings panel with a game', async () => {
  session = WITH_GAME;
  renderPage(<PlayerAuth />);
  expect(await screen.findByRole('button', { name: 'View API key' })).toBeInTheDocument();
  for (const step of ['Register a player', 'Confirm the email address', 'Log a player in', 'Reset a password']) {
    expect(screen.getByRole('heading', { name: new RegExp(step) })).toBeInTheDocument();
  }
  expect(await screen.findByRole('checkbox', { name: 'Player authentication is disabled' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Players dashboard' })).toHaveAttribute('href', '/dashboard/players');
});

it('shows the player data guide with a game: players, characters, game state, versions, 40 KB', async () => {
  session = WITH_GAME;
  renderPage(<PlayerData />);
  expect(await screen.findByRole('heading', { name: /Save player data/ })).toBeInTheDocument();
  for (const step of ['Retrieve player data', 'Delete player data', 'Character data', 'Game state', 'Versions']) {
    expect(screen.getByRole('heading', { name: new RegExp(step) })).toBeInTheDocument();
  }
  expect(screen.getAllByText('__game__').length).toBeGreaterThan(0);
  expect(screen.getByText('40 KB')).toBeInTheDocument();
});
