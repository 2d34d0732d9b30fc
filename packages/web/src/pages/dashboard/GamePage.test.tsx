// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.js';
import { json } from '../../test/server.js';
import { game, withGames } from '../../test/sessions.js';
import { GamePage } from './GamePage.js';

const GAME = 'CgMSrz3BB6Yaut59';

// The server is outside a component test: fetch answers as the console API would (a game the
// answers change), and records the calls.
let calls: { method: string; url: string; body?: unknown }[];
let stored: Record<string, unknown>;
let apiKey: string;
let failNext: { status: number; code: string; message: string } | undefined;
beforeEach(() => {
  calls = [];
  failNext = undefined;
  apiKey = 'howl_old_key';
  stored = {
    game_id: GAME,
    name: 'Wolf Run',
    created_at: '2026-11-01T00:00:00.000Z',
    player_auth_enabled: false,
    reg_type: 'email_un_pwd',
    email_conf_enabled: true,
    latest_plugin_version: '0.9.7',
    latest_engine: '4.2.1',
    allow_client_deletes: false,
  };
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
    calls.push({ method, url, body });
    if (method !== 'GET' && failNext) {
      const { status, ...error } = failNext;
      return json({ error }, status);
    }
    if (url === '/api/auth/whoami') return json({ session: withGames(game(GAME, String(stored.name))) });
    if (url === `/api/games/${GAME}` && method === 'GET') return json(stored);
    if (url === `/api/games/${GAME}` && method === 'PATCH') return json((stored = { ...stored, ...body }));
    if (url === `/api/games/${GAME}/api-key`) return json({ api_key: apiKey });
    if (url === `/api/games/${GAME}/api-key/rotate`) return json({ api_key: (apiKey = 'howl_new_key') });
    if (url === `/api/games/${GAME}` && method === 'DELETE') return json({ games: [], current_game_id: null });
    return json({ error: { code: 'NotFound', message: 'Not found.' } }, 404);
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  const user = userEvent.setup();
  const rendered = renderWithProviders(
    <Routes>
      <Route path="/dashboard/game" element={<GamePage />} />
      <Route path="/" element={<h1>Home page</h1>} />
    </Routes>,
    { path: '/dashboard/game', session: withGames(game(GAME, 'Wolf Run')) },
  );
  return { user, ...rendered };
}

const sent = (method: string, url: string) => calls.filter((c) => c.method === method && c.url === url);

describe('the dashboard Game page', () => {
  it('shows the id with a copy button, the name, and the plugin and engine versions last seen', async () => {
    renderPage();
    expect(screen.getByText(GAME)).toBeInTheDocument();
    expect(screen.getByText('Wolf Run')).toBeInTheDocument();
    const versions = (await screen.findByRole('heading', { name: 'Plugin and engine seen' })).closest('section')!;
    expect(within(versions).getByText('0.9.7')).toBeInTheDocument();
    expect(within(versions).getByText('Godot 4.2.1')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Copy' })).toHaveLength(1);
  });

  it('says when no call has reported a version yet', async () => {
    stored = { ...stored, latest_plugin_version: null, latest_engine: null };
    renderPage();
    const versions = (await screen.findByRole('heading', { name: 'Plugin and engine seen' })).closest('section')!;
    expect(within(versions).getAllByText('Not seen yet')).toHaveLength(2);
  });

  it('keeps the API key hidden until View API key, then shows it with a copy button', async () => {
    const { user } = renderPage();
    await screen.findByRole('heading', { name: 'Plugin and engine seen' });
    expect(screen.queryByText('howl_old_key')).toBeNull();
    expect(sent('GET', `/api/games/${GAME}/api-key`)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'View API key' }));
    expect(await screen.findByText('howl_old_key')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Copy' })).toHaveLength(2);
  });

  it('rotates the key only after a confirm that says old clients stop working, then shows the new key', async () => {
    const { user } = renderPage();
    await user.click(screen.getByRole('button', { name: 'Rotate API key' }));
    let dialog = await screen.findByRole('dialog', { name: 'Rotate the API key of Wolf Run?' });
    expect(dialog).toHaveTextContent('the old key stops working at once');
    expect(dialog).toHaveTextContent('403 InvalidApiKey');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent('POST', `/api/games/${GAME}/api-key/rotate`)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Rotate API key' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Rotate key' }));
    expect(await screen.findByText('howl_new_key')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText(/Your new API key is ready/)).toBeInTheDocument();
    expect(sent('POST', `/api/games/${GAME}/api-key/rotate`)).toHaveLength(1);
  });

  it('shows a failed rotation inside the confirm and keeps it open', async () => {
    const { user } = renderPage();
    await user.click(screen.getByRole('button', { name: 'Rotate API key' }));
    failNext = { status: 503, code: 'ServiceUnavailable', message: 'The database is busy.' };
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Rotate key' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The database is busy.');
    expect(screen.queryByText('howl_new_key')).toBeNull();
  });

  it('refuses client deletes by default, and the checkbox sends allow_client_deletes both ways', async () => {
    const { user } = renderPage();
    const refuse = await screen.findByRole('checkbox', { name: 'Refuse deletes and wipes from game clients' });
    expect(refuse).toBeChecked();
    expect(screen.getByText(/get 403 ClientWritesDisabled/)).toBeInTheDocument();
    await user.click(refuse);
    await waitFor(() => expect(refuse).not.toBeChecked());
    expect(
      screen.getByText('Any game client holding your API key can delete scores and wipe leaderboards.'),
    ).toBeInTheDocument();
    await user.click(refuse);
    await waitFor(() => expect(refuse).toBeChecked());
    expect(sent('PATCH', `/api/games/${GAME}`).map((c) => c.body)).toEqual([
      { allow_client_deletes: true },
      { allow_client_deletes: false },
    ]);
  });

  it('shows a refused setting change and keeps the stored value', async () => {
    const { user } = renderPage();
    const refuse = await screen.findByRole('checkbox', { name: 'Refuse deletes and wipes from game clients' });
    failNext = { status: 401, code: 'NotAuthorized', message: 'Please sign in.' };
    await user.click(refuse);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your change was not saved - Please sign in.');
    expect(refuse).toBeChecked();
  });

  it('renames the game', async () => {
    const { user } = renderPage();
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    const field = screen.getByLabelText('New game name');
    expect(field).toHaveValue('Wolf Run');
    await user.clear(field);
    await user.type(field, 'Wolf Run Deluxe');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Wolf Run Deluxe')).toBeInTheDocument();
    expect(screen.queryByLabelText('New game name')).toBeNull();
    expect(sent('PATCH', `/api/games/${GAME}`).map((c) => c.body)).toEqual([{ name: 'Wolf Run Deluxe' }]);
  });

  it("shows the server's reason when a name is refused, and Cancel keeps the old name", async () => {
    const { user } = renderPage();
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    failNext = { status: 400, code: 'InvalidParameter', message: 'Please enter a name for your game.' };
    await user.clear(screen.getByLabelText('New game name'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The game was not renamed - Please enter a name for your game.',
    );
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Wolf Run')).toBeInTheDocument();
  });

  it('deletes the game after the confirm and goes to /', async () => {
    const { user } = renderPage();
    await user.click(screen.getByRole('button', { name: 'Delete this game' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Wolf Run?' });
    expect(dialog).toHaveTextContent(
      'All data of this game is lost: its leaderboards and scores, its players and their data, and its API key. There is no way back.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeInTheDocument();
    expect(sent('DELETE', `/api/games/${GAME}`)).toHaveLength(1);
  });
});
