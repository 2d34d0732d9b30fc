// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { LeaderboardWithStats } from '@howl/contract';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.js';
import { json } from '../../test/server.js';
import { game, withGames } from '../../test/sessions.js';
import { ScoresPage } from './ScoresPage.js';

const GAME = 'game-1';
const BOARDS = `/api/games/${GAME}/leaderboards`;

const board = (over: Partial<LeaderboardWithStats> = {}): LeaderboardWithStats => ({
  name: 'main',
  display_name: 'main',
  insert_option: 'keep',
  time_based: 'na',
  timezone: null,
  max_entries: 10,
  sort: 'desc',
  created_at: '2026-11-23T00:00:00.000Z',
  engine: '-',
  entry_count: 0,
  ...over,
});
const score = (position: number, player_name: string, value: number, metadata: Record<string, unknown> | null) => ({
  score_id: `s${position}`,
  player_name,
  score: value,
  timestamp: Date.UTC(2026, 10, 23, 10, position),
  metadata,
  position,
  engine: 4,
});

// The server is outside a component test: fetch answers as the console API would, keeps the boards
// it was told to create, change or delete, and records every call.
let boards: LeaderboardWithStats[];
let calls: { method: string; url: string; body?: Record<string, unknown> }[];
let paged: boolean;
let nextPageFails: boolean;
beforeEach(() => {
  calls = [];
  paged = false;
  nextPageFails = false;
  boards = [
    board(),
    board({ name: 'race', display_name: 'Race', sort: 'asc', max_entries: null, engine: '4', entry_count: 2 }),
  ];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
    calls.push({ method, url, ...(body ? { body } : {}) });
    if (url === BOARDS && method === 'GET') return json({ leaderboards: boards });
    if (url === BOARDS && method === 'POST') {
      const made = board({ ...body, display_name: (body!.display_name as string) || (body!.name as string) });
      boards = [...boards, made];
      return json(made, 201);
    }
    if (url.startsWith(`${BOARDS}/race/scores?`) && url.includes('cursor=next')) {
      if (nextPageFails) return json({ error: { code: 'InternalError', message: 'The server had a problem.' } }, 500);
      return json({ scores: [score(3, 'late', 60, null)], period: null, cursor: null });
    }
    if (url.startsWith(`${BOARDS}/race/scores?`))
      return json({
        scores: [score(1, 'swift', 41.5, { car: 'red' }), score(2, 'steady', 58.25, null)],
        period: null,
        cursor: paged ? 'next' : null,
      });
    const name = decodeURIComponent(url.slice(BOARDS.length + 1));
    if (method === 'PUT') {
      boards = boards.map((b) => (b.name === name ? { ...b, ...body } : b));
      return json(boards.find((b) => b.name === name));
    }
    if (method === 'DELETE') {
      boards = boards.filter((b) => b.name !== name);
      return json({ ok: true });
    }
    throw new Error(`no answer for ${method} ${url}`);
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  renderWithProviders(<ScoresPage />, { session: withGames(game(GAME, 'Wolf Run')) });
}
const section = async (displayName: string) => (await screen.findByText(displayName)).closest('section')!;
const cellText = (section: HTMLElement, label: string) =>
  within(section).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

describe('the scores page', () => {
  it("shows each board's settings with its order and entry count", async () => {
    renderPage();
    const race = await section('Race');
    expect(cellText(race, 'Save scores')).toBe('All (keep)');
    expect(cellText(race, 'Godot version')).toBe('4');
    expect(cellText(race, 'Resets')).toBe('Never');
    expect(cellText(race, 'Order')).toBe('Lower first');
    expect(cellText(race, 'Entries')).toBe('2, no limit');
    const main = (await screen.findAllByText('main', { selector: 'dd' }))[0]!.closest('section')!;
    expect(cellText(main, 'Order')).toBe('Higher first');
    expect(cellText(main, 'Entries')).toBe('0 of 10');
  });

  it('lists scores with their positions; metadata opens, an empty metadata cell is plain text', async () => {
    const user = userEvent.setup();
    renderPage();
    const race = await section('Race');
    await user.click(within(race).getByRole('button', { expanded: false }));
    const table = await within(race).findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Position', 'Player name', 'Score', 'Saved on', 'Metadata', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .slice(0, 3)
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['1', 'swift', '41.5'],
      ['2', 'steady', '58.25'],
    ]);
    const emptyMetadata = within(rows[1]!).getAllByRole('cell')[4]!;
    expect(emptyMetadata).toHaveTextContent('None');
    expect(within(emptyMetadata).queryByRole('button')).not.toBeInTheDocument();
    await user.click(within(rows[0]!).getByRole('button', { name: 'Metadata of the score of swift' }));
    const metadata = await screen.findByRole('dialog', { name: 'Score metadata' });
    expect(within(metadata).getByText('car').nextElementSibling).toHaveTextContent('red');
  });

  it('keeps the scores already loaded when the next page fails, and tries that page again', async () => {
    paged = true;
    nextPageFails = true;
    const user = userEvent.setup();
    renderPage();
    const race = await section('Race');
    await user.click(within(race).getByRole('button', { expanded: false }));
    await within(race).findByText('swift');
    await user.click(within(race).getByRole('button', { name: 'Load more scores' }));
    expect(await within(race).findByRole('alert')).toHaveTextContent('The server had a problem.');
    expect(within(race).getByText('swift')).toBeInTheDocument();
    nextPageFails = false;
    await user.click(within(race).getByRole('button', { name: 'Try again' }));
    expect(await within(race).findByText('late')).toBeInTheDocument();
    expect(within(race).getByText('steady')).toBeInTheDocument();
    expect(within(race).queryByRole('alert')).toBeNull();
  });

  it('adds a leaderboard from the page with the configuration form; it joins the list', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Race');
    await user.click(screen.getByRole('button', { name: 'Add leaderboard' }));
    const form = screen.getByRole('form', { name: 'New leaderboard' });
    await user.type(within(form).getByLabelText('Name'), 'laps');
    await user.type(within(form).getByLabelText('Display name'), 'Lap times');
    await user.selectOptions(within(form).getByLabelText('Sort order'), 'asc');
    await user.selectOptions(within(form).getByLabelText('Max entries'), 'unlimited');
    await user.click(within(form).getByRole('button', { name: 'Submit' }));

    const saved = await screen.findByRole('form', { name: 'Leaderboard laps' });
    expect(within(saved).getByText('Configuration saved for leaderboard: laps')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: BOARDS,
      body: { name: 'laps', display_name: 'Lap times', sort: 'asc', max_entries: null },
    });
    const laps = await section('Lap times');
    expect(cellText(laps, 'Order')).toBe('Lower first');
    await user.click(within(saved).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add leaderboard' })).toBeInTheDocument();
  });

  it("configures a board from its row: the form holds the board's settings and updates it", async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Configure race' }));
    const form = screen.getByRole('form', { name: 'Leaderboard race' });
    expect(within(form).getByLabelText('Name')).toHaveAttribute('readonly');
    expect(within(form).getByLabelText('Sort order')).toHaveValue('asc');
    expect(within(form).getByLabelText('Max entries')).toHaveValue('unlimited');
    await user.selectOptions(within(form).getByLabelText('Max entries'), '100');
    await user.click(within(form).getByRole('button', { name: 'Update' }));
    // From unlimited to 100 can delete entries: confirmed first.
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Update and delete entries' }),
    );
    expect(await within(form).findByText('Configuration saved for leaderboard: race')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      url: `${BOARDS}/race`,
      body: { sort: 'asc', max_entries: 100 },
    });
    await vi.waitFor(async () => expect(cellText(await section('Race'), 'Entries')).toBe('2 of 100'));
  });

  it('shows the current period again when a board looked at in a past period stops resetting', async () => {
    boards = boards.map((b) => (b.name === 'race' ? { ...b, time_based: 'weekly', timezone: 'UTC' } : b));
    const user = userEvent.setup();
    renderPage();
    const race = await section('Race');
    await user.click(within(race).getByRole('button', { expanded: false }));
    await user.selectOptions(within(race).getByLabelText('Period'), '-1');
    await vi.waitFor(() => expect(calls.at(-1)?.url).toContain('period_offset=-1'));
    await user.click(within(race).getByRole('button', { name: 'Configure race' }));
    const form = within(race).getByRole('form', { name: 'Leaderboard race' });
    await user.selectOptions(within(form).getByLabelText('Reset period'), 'na');
    await user.click(within(form).getByRole('button', { name: 'Update' }));
    const confirm = screen.queryByRole('dialog');
    if (confirm) await user.click(within(confirm).getAllByRole('button').at(-1)!);
    await vi.waitFor(() => expect(within(race).queryByLabelText('Period')).not.toBeInTheDocument());
    await vi.waitFor(() =>
      expect(calls.filter((c) => c.url.includes('/race/scores?')).at(-1)?.url).toContain('period_offset=0'),
    );
    expect(await within(race).findByRole('table')).toBeInTheDocument();
    // Resetting again, daily: the current period, not the one looked at before.
    await user.selectOptions(within(form).getByLabelText('Reset period'), 'daily');
    await user.click(within(form).getByRole('button', { name: 'Update' }));
    const again = screen.queryByRole('dialog');
    if (again) await user.click(within(again).getAllByRole('button').at(-1)!);
    expect(await within(race).findByLabelText('Period')).toHaveValue('0');
  });

  it('deletes a board from its row after the confirmation', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Configure race' }));
    const form = screen.getByRole('form', { name: 'Leaderboard race' });
    await user.click(within(form).getByRole('button', { name: 'Delete leaderboard' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete race?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete leaderboard' }));
    await vi.waitFor(() => expect(screen.queryByText('Race')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([`${BOARDS}/race`]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says so when the game has no leaderboards', async () => {
    boards = [];
    renderPage();
    expect(await screen.findByText('No leaderboards yet. Add one to configure it.')).toBeInTheDocument();
  });
});
