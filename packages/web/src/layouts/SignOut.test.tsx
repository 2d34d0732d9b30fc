// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render.js';
import { json } from '../test/server.js';
import { game, withGames } from '../test/sessions.js';
import { PublicLayout } from './PublicLayout.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderSignedIn(signOutAnswer: () => Response | Promise<Response>) {
  vi.stubGlobal('fetch', async (url: string) =>
    url === '/api/auth/sign-out' ? signOutAnswer() : json({ error: { code: 'NotFound', message: 'Not found.' } }, 404),
  );
  return renderWithProviders(
    <Routes>
      <Route element={<PublicLayout />}>
        <Route path="/" element={<p>Home</p>} />
        <Route path="/auth" element={<p>Sign in here</p>} />
      </Route>
    </Routes>,
    { session: withGames(game('game-1', 'Wolf Run')), staleTime: Infinity },
  );
}

describe('signing out', () => {
  it('stays signed in, and says so, when the server did not end the session', async () => {
    const user = userEvent.setup();
    renderSignedIn(() =>
      json(
        { error: { code: 'ServiceUnavailable', message: 'The server is restarting. Please try again in a moment.' } },
        503,
      ),
    );
    await user.click(screen.getAllByRole('button', { name: /Sign out/ })[0]!);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You are still signed in: The server is restarting. Please try again in a moment.',
    );
    expect(screen.getByText('Home')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /Sign out/ }).length).toBeGreaterThan(0);
  });

  it('signs out and goes to /auth when the server ends the session, or had ended it already', async () => {
    for (const answer of [
      () => json({ ok: true }),
      () => json({ error: { code: 'NotAuthorized', message: 'Please sign in.' } }, 401),
    ]) {
      const user = userEvent.setup();
      renderSignedIn(answer);
      await user.click(screen.getAllByRole('button', { name: /Sign out/ })[0]!);
      expect(await screen.findByText('Sign in here')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Sign out/ })).toBeNull();
      cleanup();
    }
  });
});
