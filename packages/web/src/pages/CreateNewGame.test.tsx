// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render.js';
import { json } from '../test/server.js';
import { developer as SESSION } from '../test/sessions.js';
import { CreateNewGame } from './CreateNewGame.js';

// The Howl server is not part of a component test: a stand-in for fetch answers the session and
// game calls as docs/api.md documents them, and records what was sent.
function stubServer({ signedIn, create }: { signedIn: boolean; create?: () => Response }) {
  const sent: { method: string; path: string; body?: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      sent.push({ method, path, body: init.body ? JSON.parse(init.body as string) : undefined });
      if (path === '/api/auth/whoami') return json({ session: signedIn ? SESSION : null });
      if (method === 'POST' && path === '/api/games') return create!();
      return json({ error: { code: 'NotFound', message: 'Not found.' } }, 404);
    }),
  );
  return sent;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  renderWithProviders(<CreateNewGame />, { path: '/createNewGame' });
}

it('asks a visitor to sign in first, with a login button to /auth', async () => {
  stubServer({ signedIn: false });
  renderPage();
  expect(await screen.findByText('Sign in before you can create a new game')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/auth');
  expect(screen.queryByLabelText('Name of your game')).not.toBeInTheDocument();
});

it('creates the game and shows Congrats, the API key, the game ID, the next steps and a Home button', async () => {
  const sent = stubServer({
    signedIn: true,
    create: () => json({ game_id: 'CgMSrz3BB6Yaut59', api_key: 'howl_abc' }, 201),
  });
  const user = userEvent.setup();
  renderPage();
  const name = await screen.findByLabelText('Name of your game');
  expect(name).toBeRequired();
  await user.type(name, 'Wolf Runner');
  await user.click(screen.getByRole('button', { name: 'Submit' }));

  expect(await screen.findByText('Congrats')).toBeInTheDocument();
  expect(screen.getByText('howl_abc')).toBeInTheDocument();
  expect(screen.getByText('CgMSrz3BB6Yaut59')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/features');
  // Next steps: the plugin, its configuration with this game's key and id filled in, a first score.
  const steps = within(screen.getByRole('region', { name: 'Next steps' }));
  expect(steps.getByRole('link', { name: 'Download the plugin' })).toHaveAttribute('href', '/download');
  const configure = steps.getAllByText(/Howl\.configure/).map((code) => code.textContent);
  expect(configure).toHaveLength(2);
  for (const code of configure) {
    expect(code).toContain('"api_key": "howl_abc"');
    expect(code).toContain('"game_id": "CgMSrz3BB6Yaut59"');
    expect(code).not.toContain('YOUR_');
  }
  expect(steps.getAllByText(/Howl\.Scores\.save_score/)).toHaveLength(2);
  expect(steps.getByRole('link', { name: 'dashboard' })).toHaveAttribute('href', '/dashboard/scores');
  expect(screen.getByRole('link', { name: 'Open the dashboard' })).toHaveAttribute('href', '/dashboard/game');
  expect(sent).toContainEqual({ method: 'POST', path: '/api/games', body: { name: 'Wolf Runner' } });
  // The new game is current: the session is asked for again.
  await vi.waitFor(() => expect(sent.filter((c) => c.path === '/api/auth/whoami')).toHaveLength(2));
});

it('shows the error of a failed creation and keeps the form', async () => {
  stubServer({
    signedIn: true,
    create: () =>
      json({ error: { code: 'GameLimitReached', message: 'You already have 100 games, the most allowed.' } }, 409),
  });
  const user = userEvent.setup();
  renderPage();
  await user.type(await screen.findByLabelText('Name of your game'), 'One too many');
  await user.click(screen.getByRole('button', { name: 'Submit' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'There was an error creating your new game - You already have 100 games, the most allowed.',
  );
  expect(screen.queryByText('Congrats')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Submit' })).toBeInTheDocument();
});
