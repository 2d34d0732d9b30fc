// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { DeveloperSession } from '@howl/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionKeys } from '../api/session/keys.js';
import appSource from '../App.tsx?raw';
import { BlogGodot4 } from './BlogGodot4.js';
import { CallingHowl } from './CallingHowl.js';
import { CSharp } from './CSharp.js';
import { Download } from './Download.js';
import { Home } from './Home.js';
import { MobileExport } from './MobileExport.js';
import { Privacy } from './Privacy.js';
import { Terms } from './Terms.js';
import { Troubleshooting } from './Troubleshooting.js';

afterEach(cleanup);

const DEVELOPER: DeveloperSession = {
  email: 'dev@example.com',
  firstName: 'A',
  lastName: 'Developer',
  company: null,
  games: [{ game_id: 'g1', name: 'Moon Runner', created_at: '2026-11-01T00:00:00.000Z' }],
  current_game_id: 'g1',
};

/** Renders a page with a session already in the cache, so nothing is fetched. */
function renderPage(page: ReactElement, session: DeveloperSession | null = null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(sessionKeys.all, session);
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{page}</MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('Home', () => {
  it('shows the three feature cards, each with a Get started link to its setup page', () => {
    renderPage(<Home />);
    const cards: [string, string][] = [
      ['Set up your leaderboard', '/leaderboard'],
      ['Set up player accounts', '/playerauth'],
      ['Set up player data', '/playerdata'],
    ];
    const starts = screen.getAllByRole('link', { name: 'Get started' });
    expect(starts).toHaveLength(3);
    cards.forEach(([title, href], i) => {
      const heading = screen.getByRole('heading', { name: title });
      const card = heading.closest('section');
      expect(card).not.toBeNull();
      expect(within(card as HTMLElement).getByRole('link', { name: 'Get started' })).toHaveAttribute('href', href);
      expect(starts[i]).toHaveAttribute('href', href);
    });
  });

  it('shows the studio work with a contact link', () => {
    renderPage(<Home />);
    for (const work of [
      'Custom development for Godot',
      'Game backend and cloud infrastructure',
      'Native scripting and console ports',
      'Training',
    ]) {
      expect(screen.getByRole('heading', { name: work })).toBeInTheDocument();
    }
    expect(screen.getByText(/in GDScript and C#/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /contact us/i })).toHaveAttribute('href', '/contact');
  });

  it('links to the dashboard only when a game is selected', () => {
    renderPage(<Home />);
    expect(screen.queryByRole('link', { name: /dashboard/i })).toBeNull();
    cleanup();

    renderPage(<Home />, { ...DEVELOPER, current_game_id: null });
    expect(screen.queryByRole('link', { name: /dashboard/i })).toBeNull();
    cleanup();

    renderPage(<Home />, DEVELOPER);
    expect(screen.getByRole('link', { name: /dashboard/i })).toHaveAttribute('href', '/dashboard/game');
    expect(screen.getByText('Moon Runner')).toBeInTheDocument();
  });
});

describe('content pages', () => {
  it('say when the legal texts were last updated', () => {
    renderPage(<Terms />);
    expect(screen.getByText('Last updated: July 25th 2022')).toBeInTheDocument();
    cleanup();
    renderPage(<Privacy />);
    expect(screen.getByText('Last updated: July 25th 2022')).toBeInTheDocument();
  });

  it('give both plugin versions on the download page, with no download links yet', () => {
    const { container } = renderPage(<Download />);
    expect(screen.getByText('Howl plugin version 0.6.20')).toBeInTheDocument();
    expect(screen.getByText('Howl plugin version 0.9.7')).toBeInTheDocument();
    expect(screen.getByText(/not available yet\. The steps below/)).toBeInTheDocument();
    expect(container.querySelector('a[href$=".zip"], a[download]')).toBeNull();
    expect(screen.getByRole('link', { name: 'features' })).toHaveAttribute('href', '/features');
  });
});

// The routes of App.tsx, read from its source so this list cannot drift from it.
const ROUTES = [...appSource.matchAll(/path="([^"]+)"/g)].map((m) => m[1] as string);
const EXACT = new Set(['/', ...ROUTES.filter((p) => !p.includes('*'))]);
const PREFIXES = ROUTES.filter((p) => p.endsWith('/*') && p !== '*').map((p) => p.slice(0, -1));
function isKnownRoute(path: string) {
  return EXACT.has(path) || PREFIXES.some((prefix) => path.startsWith(prefix));
}

const PAGES: [string, () => ReactElement][] = [
  ['Home', () => <Home />],
  ['Terms', () => <Terms />],
  ['Privacy', () => <Privacy />],
  ['Download', () => <Download />],
  ['Troubleshooting', () => <Troubleshooting />],
  ['CallingHowl', () => <CallingHowl />],
  ['CSharp', () => <CSharp />],
  ['MobileExport', () => <MobileExport />],
  ['BlogGodot4', () => <BlogGodot4 />],
];

describe.each([
  ['signed out', null],
  ['signed in with a game', DEVELOPER],
  ['signed in without a game', { ...DEVELOPER, games: [], current_game_id: null }],
])('internal links, %s', (_, session) => {
  it.each(PAGES)('%s links only to routes of the site, and in-page anchors to existing ids', (_, page) => {
    expect(EXACT.size).toBeGreaterThan(20);
    const { container } = renderPage(page(), session);
    const internal = [...container.querySelectorAll<HTMLAnchorElement>('a[href^="/"]')];
    for (const a of internal) {
      const path = (a.getAttribute('href') ?? '').split(/[?#]/)[0] as string;
      expect(isKnownRoute(path), `${a.textContent} → ${path}`).toBe(true);
    }
    for (const a of container.querySelectorAll<HTMLAnchorElement>('a[href^="#"]')) {
      const id = (a.getAttribute('href') ?? '').slice(1);
      expect(container.querySelector(`[id="${id}"]`), `anchor #${id}`).not.toBeNull();
    }
    // No link leaves the site except to Godot's documentation.
    for (const a of container.querySelectorAll<HTMLAnchorElement>('a[href^="http"]')) {
      expect(new URL(a.href).hostname).toMatch(/(^|\.)godotengine\.org$/);
    }
  });
});
