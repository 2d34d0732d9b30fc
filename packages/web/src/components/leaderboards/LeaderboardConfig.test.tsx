// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { Leaderboard } from '@howl/contract';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.js';
import { json } from '../../test/server.js';
import { browserTimeZone, LeaderboardConfig } from './LeaderboardConfig.js';

const board = (over: Partial<Leaderboard> = {}) => ({
  name: 'main',
  display_name: 'main',
  insert_option: 'keep',
  time_based: 'na',
  timezone: null,
  max_entries: 10,
  sort: 'desc',
  created_at: '2026-11-23T00:00:00.000Z',
  ...over,
});

// The Howl server is not part of a component test: a stand-in for fetch answers as the console API
// documents (docs/leaderboards.md), and records every call.
let boards: unknown[];
let answer: (method: string, path: string, body: Record<string, unknown>) => Response;
const calls: { method: string; path: string; body?: Record<string, unknown> }[] = [];
beforeEach(() => {
  calls.length = 0;
  boards = [{ ...board(), engine: '-', entry_count: 0 }];
  answer = (method, path, body) =>
    method === 'POST'
      ? json(board({ ...body, display_name: (body.display_name as string) || (body.name as string) }), 201)
      : method === 'DELETE'
        ? json({ ok: true })
        : json(board({ name: decodeURIComponent(path.split('/').pop()!), ...body }));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      const body = init.body ? (JSON.parse(init.body as string) as Record<string, unknown>) : undefined;
      calls.push({ method, path, body });
      if (method === 'GET') return json({ leaderboards: boards });
      return answer(method, path, body!);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderConfig() {
  renderWithProviders(<LeaderboardConfig gameId="g1" />);
}

it("lists the game's saved leaderboards with a read-only name and Update", async () => {
  renderConfig();
  expect(screen.getByRole('status')).toHaveTextContent('Loading your leaderboards…');
  const row = await screen.findByRole('form', { name: 'Leaderboard main' });
  expect(within(row).getByLabelText('Name')).toHaveValue('main');
  expect(within(row).getByLabelText('Name')).toHaveAttribute('readonly');
  expect(within(row).getByRole('button', { name: 'Update' })).toBeInTheDocument();
  expect(calls[0]).toMatchObject({ method: 'GET', path: '/api/games/g1/leaderboards' });
});

it('shows an empty state when the game has no leaderboards', async () => {
  boards = [];
  renderConfig();
  expect(await screen.findByText('No leaderboards yet. Add one to configure it.')).toBeInTheDocument();
});

it('adds a row, submits it, and turns it into a saved row with Update and the success text', async () => {
  const user = userEvent.setup();
  renderConfig();
  await user.click(await screen.findByRole('button', { name: 'Add leaderboard' }));
  const row = screen.getByRole('form', { name: 'New leaderboard' });
  // The new row's defaults: empty name and display name, keep (All), no reset, 10 entries.
  expect(within(row).getByLabelText('Name')).toHaveValue('');
  expect(within(row).getByLabelText('Name')).not.toHaveAttribute('readonly');
  expect(within(row).getByLabelText('Display name')).toHaveValue('');
  expect(within(row).getByLabelText('Save mode')).toHaveValue('keep');
  expect(within(row).getByRole('option', { name: 'keep (All)' })).toBeInTheDocument();
  expect(within(row).getByLabelText('Reset period')).toHaveValue('na');
  expect(within(row).getByLabelText('Max entries')).toHaveValue('10');
  expect(
    within(within(row).getByLabelText('Max entries'))
      .getAllByRole('option')
      .map((o) => o.textContent),
  ).toEqual(['10', '20', '30', '40', '50', '100', '200', '500', '1000', 'Unlimited']);
  expect(within(row).getByLabelText('Sort order')).toHaveValue('desc');

  await user.type(within(row).getByLabelText('Name'), 'weekly_best');
  await user.type(within(row).getByLabelText('Display name'), 'Weekly best');
  await user.selectOptions(within(row).getByLabelText('Save mode'), 'highest');
  await user.selectOptions(within(row).getByLabelText('Max entries'), '100');
  await user.click(within(row).getByRole('button', { name: 'Submit' }));

  const saved = await screen.findByRole('form', { name: 'Leaderboard weekly_best' });
  expect(within(saved).getByText('Configuration saved for leaderboard: weekly_best')).toBeInTheDocument();
  expect(within(saved).getByLabelText('Name')).toHaveAttribute('readonly');
  expect(within(saved).getByRole('button', { name: 'Update' })).toBeInTheDocument();
  expect(within(saved).queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
  expect(calls.find((c) => c.method === 'POST')).toEqual({
    method: 'POST',
    path: '/api/games/g1/leaderboards',
    body: {
      name: 'weekly_best',
      display_name: 'Weekly best',
      insert_option: 'highest',
      time_based: 'na',
      timezone: null,
      max_entries: 100,
      sort: 'desc',
    },
  });

  // Once saved, the same row updates the board by its name.
  await user.selectOptions(within(saved).getByLabelText('Save mode'), 'latest');
  await user.click(within(saved).getByRole('button', { name: 'Update' }));
  await vi.waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
  expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
    path: '/api/games/g1/leaderboards/weekly_best',
    body: { insert_option: 'latest', max_entries: 100 },
  });
});

it('shows the error text and keeps the row new when the save fails', async () => {
  answer = () =>
    json({ error: { code: 'LeaderboardExists', message: 'A leaderboard named main already exists.' } }, 409);
  const user = userEvent.setup();
  renderConfig();
  await user.click(await screen.findByRole('button', { name: 'Add leaderboard' }));
  const row = screen.getByRole('form', { name: 'New leaderboard' });
  await user.type(within(row).getByLabelText('Name'), 'main');
  await user.click(within(row).getByRole('button', { name: 'Submit' }));
  expect(await within(row).findByRole('alert')).toHaveTextContent(
    'There was an error saving your leaderboard config - A leaderboard named main already exists.',
  );
  expect(within(row).getByRole('button', { name: 'Submit' })).toBeInTheDocument();
  expect(within(row).getByLabelText('Name')).not.toHaveAttribute('readonly');
});

it('refuses a name the server would refuse, with the same error text', async () => {
  const user = userEvent.setup();
  renderConfig();
  await user.click(await screen.findByRole('button', { name: 'Add leaderboard' }));
  const row = screen.getByRole('form', { name: 'New leaderboard' });
  await user.type(within(row).getByLabelText('Name'), 'bad name!');
  await user.click(within(row).getByRole('button', { name: 'Submit' }));
  expect(within(row).getByRole('alert')).toHaveTextContent(
    'There was an error saving your leaderboard config - Leaderboard names are 1–64 letters, digits, _ or -.',
  );
  expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
});

it("offers a timezone only with a reset period, defaulting to the browser's zone", async () => {
  const user = userEvent.setup();
  renderConfig();
  await user.click(await screen.findByRole('button', { name: 'Add leaderboard' }));
  const row = screen.getByRole('form', { name: 'New leaderboard' });
  expect(within(row).queryByLabelText('Timezone')).not.toBeInTheDocument();
  expect(
    within(within(row).getByLabelText('Reset period'))
      .getAllByRole('option')
      .map((o) => o.textContent),
  ).toEqual(['none', 'hourly', 'daily', 'weekly', 'monthly', 'yearly']);

  await user.selectOptions(within(row).getByLabelText('Reset period'), 'daily');
  expect(within(row).getByLabelText('Timezone')).toHaveValue(browserTimeZone());
  await user.selectOptions(within(row).getByLabelText('Timezone'), 'Europe/London');

  await user.selectOptions(within(row).getByLabelText('Reset period'), 'na');
  expect(within(row).queryByLabelText('Timezone')).not.toBeInTheDocument();

  await user.selectOptions(within(row).getByLabelText('Reset period'), 'weekly');
  expect(within(row).getByLabelText('Timezone')).toHaveValue('Europe/London');
  await user.type(within(row).getByLabelText('Name'), 'weekly');
  await user.click(within(row).getByRole('button', { name: 'Submit' }));
  await screen.findByText('Configuration saved for leaderboard: weekly');
  expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
    time_based: 'weekly',
    timezone: 'Europe/London',
  });
});

it('saves a race board: lower is better, unlimited entries, and keeps them on update', async () => {
  const user = userEvent.setup();
  renderConfig();
  await user.click(await screen.findByRole('button', { name: 'Add leaderboard' }));
  const row = screen.getByRole('form', { name: 'New leaderboard' });
  expect(
    within(within(row).getByLabelText('Sort order'))
      .getAllByRole('option')
      .map((o) => o.textContent),
  ).toEqual(['Higher is better', 'Lower is better (times)']);
  await user.type(within(row).getByLabelText('Name'), 'race');
  await user.selectOptions(within(row).getByLabelText('Sort order'), 'Lower is better (times)');
  await user.selectOptions(within(row).getByLabelText('Max entries'), 'Unlimited');
  await user.click(within(row).getByRole('button', { name: 'Submit' }));

  const saved = await screen.findByRole('form', { name: 'Leaderboard race' });
  expect(within(saved).getByText('Configuration saved for leaderboard: race')).toBeInTheDocument();
  expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ name: 'race', sort: 'asc', max_entries: null });
  expect(within(saved).getByLabelText('Sort order')).toHaveValue('asc');
  expect(within(saved).getByLabelText('Max entries')).toHaveValue('unlimited');

  await user.selectOptions(within(saved).getByLabelText('Max entries'), '50');
  await user.click(within(saved).getByRole('button', { name: 'Update' }));
  // From unlimited to 50 can delete entries: confirmed first.
  await user.click(
    within(await screen.findByRole('dialog')).getByRole('button', { name: 'Update and delete entries' }),
  );
  await vi.waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
  expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
    path: '/api/games/g1/leaderboards/race',
    body: { sort: 'asc', max_entries: 50 },
  });
});

it('says which entries a change deletes, and sends it only once confirmed', async () => {
  boards = [{ ...board({ max_entries: 100 }), engine: '-', entry_count: 80 }];
  const user = userEvent.setup();
  renderConfig();
  const row = await screen.findByRole('form', { name: 'Leaderboard main' });
  const keeps = 'Each player keeps only their best entry in each period; their other entries are deleted.';
  const trims = 'Each period keeps only its best 50 entries; the others are deleted.';

  // A larger size deletes nothing, and says nothing.
  await user.selectOptions(within(row).getByLabelText('Max entries'), '200');
  expect(within(row).queryByText(/deleted/)).not.toBeInTheDocument();

  await user.selectOptions(within(row).getByLabelText('Max entries'), '50');
  await user.selectOptions(within(row).getByLabelText('Save mode'), 'highest');
  expect(within(row).getByText(`${keeps} ${trims} Deleted entries cannot be brought back.`)).toBeInTheDocument();

  await user.click(within(row).getByRole('button', { name: 'Update' }));
  const dialog = await screen.findByRole('dialog', { name: 'Update main?' });
  expect(
    within(dialog)
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual([keeps, trims]);
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(calls.some((c) => c.method === 'PUT')).toBe(false);

  await user.click(within(row).getByRole('button', { name: 'Update' }));
  await user.click(
    within(await screen.findByRole('dialog')).getByRole('button', { name: 'Update and delete entries' }),
  );
  await vi.waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
  expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ insert_option: 'highest', max_entries: 50 });
  // Saved: the board as it now stands deletes nothing more.
  expect(await within(row).findByText('Configuration saved for leaderboard: main')).toBeInTheDocument();
  expect(within(row).queryByText(/Deleted entries/)).not.toBeInTheDocument();
});

it('lets a new row that is not wanted go with Cancel', async () => {
  const user = userEvent.setup();
  renderConfig();
  await user.click(await screen.findByRole('button', { name: 'Add leaderboard' }));
  const row = screen.getByRole('form', { name: 'New leaderboard' });
  await user.click(within(row).getByRole('button', { name: 'Cancel' }));
  expect(screen.queryByRole('form', { name: 'New leaderboard' })).not.toBeInTheDocument();
  expect(screen.getByRole('form', { name: 'Leaderboard main' })).toBeInTheDocument();
  expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
});

it("shows a saved board's order and unlimited size as stored", async () => {
  boards = [{ ...board({ name: 'laps', sort: 'asc', max_entries: null }), engine: '-', entry_count: 0 }];
  renderConfig();
  const row = await screen.findByRole('form', { name: 'Leaderboard laps' });
  expect(within(row).getByLabelText('Sort order')).toHaveValue('asc');
  expect(within(row).getByLabelText('Max entries')).toHaveValue('unlimited');
});

it('deletes a saved board only after the confirmation, and drops its row', async () => {
  const user = userEvent.setup();
  renderConfig();
  const row = await screen.findByRole('form', { name: 'Leaderboard main' });
  await user.click(within(row).getByRole('button', { name: 'Delete leaderboard' }));
  const dialog = screen.getByRole('dialog', { name: 'Delete main?' });
  expect(dialog).toHaveTextContent('The leaderboard and every score in it, in every period, are deleted.');
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);

  await user.click(within(row).getByRole('button', { name: 'Delete leaderboard' }));
  boards = [];
  await user.click(
    within(screen.getByRole('dialog', { name: 'Delete main?' })).getByRole('button', { name: 'Delete leaderboard' }),
  );
  await vi.waitFor(() => expect(screen.queryByRole('form', { name: 'Leaderboard main' })).not.toBeInTheDocument());
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/games/g1/leaderboards/main']);
});

it('shows why a delete failed and keeps the board', async () => {
  answer = () => json({ error: { code: 'LeaderboardNotFound', message: 'No leaderboard named main.' } }, 404);
  const user = userEvent.setup();
  renderConfig();
  const row = await screen.findByRole('form', { name: 'Leaderboard main' });
  await user.click(within(row).getByRole('button', { name: 'Delete leaderboard' }));
  const dialog = screen.getByRole('dialog', { name: 'Delete main?' });
  await user.click(within(dialog).getByRole('button', { name: 'Delete leaderboard' }));
  expect(await within(dialog).findByRole('alert')).toHaveTextContent('No leaderboard named main.');
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(screen.getByRole('form', { name: 'Leaderboard main' })).toBeInTheDocument();
});

it('offers no delete on a row that is not saved yet', async () => {
  const user = userEvent.setup();
  renderConfig();
  await user.click(await screen.findByRole('button', { name: 'Add leaderboard' }));
  const row = screen.getByRole('form', { name: 'New leaderboard' });
  expect(within(row).queryByRole('button', { name: 'Delete leaderboard' })).not.toBeInTheDocument();
});

it("says, while a saved board's reset period or time zone changes, that its scores stay in their periods", async () => {
  const note =
    'Scores saved so far stay in the periods they were saved in: with a new reset period or time zone, the current period may start empty (it does when the new periods start at other times).';
  boards = [
    { ...board({ name: 'race', time_based: 'daily', timezone: 'Europe/Berlin' }), engine: '4', entry_count: 7 },
  ];
  const user = userEvent.setup();
  renderConfig();
  const row = await screen.findByRole('form', { name: 'Leaderboard race' });
  expect(within(row).queryByText(note)).not.toBeInTheDocument();
  await user.selectOptions(within(row).getByLabelText('Timezone'), 'America/New_York');
  expect(within(row).getByText(note)).toBeInTheDocument();
  await user.selectOptions(within(row).getByLabelText('Timezone'), 'Europe/Berlin');
  expect(within(row).queryByText(note)).not.toBeInTheDocument();
  // Other settings move no period.
  await user.selectOptions(within(row).getByLabelText('Max entries'), '50');
  expect(within(row).queryByText(note)).not.toBeInTheDocument();
  await user.selectOptions(within(row).getByLabelText('Reset period'), 'weekly');
  expect(within(row).getByText(note)).toBeInTheDocument();
  // Once saved, the new settings are the stored ones.
  await user.click(within(row).getByRole('button', { name: 'Update' }));
  await within(row).findByText('Configuration saved for leaderboard: race');
  expect(within(row).queryByText(note)).not.toBeInTheDocument();
});

it('says nothing of periods on a new board', async () => {
  const user = userEvent.setup();
  renderConfig();
  await user.click(await screen.findByRole('button', { name: 'Add leaderboard' }));
  const row = screen.getByRole('form', { name: 'New leaderboard' });
  await user.selectOptions(within(row).getByLabelText('Reset period'), 'daily');
  expect(within(row).queryByText(/stay in the periods/)).not.toBeInTheDocument();
});
