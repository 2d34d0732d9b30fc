// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render.js';
import { json } from '../test/server.js';
import { game, withGames, type GameSummary } from '../test/sessions.js';
import { Features, LeaderboardPage } from './Features.js';

const GAME = game('g1', 'Wolf Runner');

// The Howl server is not part of a component test: a stand-in for fetch answers the session and the
// leaderboards as docs/api.md and docs/leaderboards.md document them.
function stubServer(session: object | null) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string) => {
      if (path === '/api/auth/whoami') return json({ session: session ?? null });
      if (path === '/api/games/g1/leaderboards') return json({ leaderboards: [] });
      return json({ error: { code: 'NotFound', message: 'Not found.' } }, 404);
    }),
  );
}
const signedIn = (games: GameSummary[]) => withGames(...games);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderAt(page: React.ReactNode) {
  renderWithProviders(page);
}

it('/leaderboard signed out: the intro and a button to /auth', async () => {
  stubServer(null);
  renderAt(<LeaderboardPage />);
  expect(await screen.findByRole('link', { name: 'Login or create an account' })).toHaveAttribute('href', '/auth');
});

it('/leaderboard without a game: the create-game form', async () => {
  stubServer(signedIn([]));
  renderAt(<LeaderboardPage />);
  expect(await screen.findByLabelText('Name of your game')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'View API key' })).not.toBeInTheDocument();
});

it('/leaderboard with a game: View API key and the guide with its anchors', async () => {
  stubServer(signedIn([GAME]));
  renderAt(<LeaderboardPage />);
  expect(await screen.findByRole('button', { name: 'View API key' })).toBeInTheDocument();
  for (const id of [
    'customLeaderboards',
    'scorePositions',
    'wipeLeaderboard',
    'scoresForPlayer',
    'topScoreForPlayer',
    'getScoresAround',
  ]) {
    expect(document.getElementById(id)).not.toBeNull();
  }
  expect(await screen.findByText('No leaderboards yet. Add one to configure it.')).toBeInTheDocument();
});

it('/features shows the leaderboard page to a signed-in developer', async () => {
  stubServer(signedIn([GAME]));
  renderAt(<Features />);
  expect(await screen.findByRole('button', { name: 'View API key' })).toBeInTheDocument();
});
