// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { DeveloperSession } from '@howl/contract';
import { cleanup, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import appSource from '../App.tsx?raw';
import { renderWithProviders } from '../test/render.js';
import { game, withGames } from '../test/sessions.js';
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

const DEVELOPER = withGames(game('g1', 'Moon Runner', '2026-11-01T00:00:00.000Z'));

/** Renders a page with a session already in the cache, so nothing is fetched. */
function renderPage(page: ReactElement, session: DeveloperSession | null = null) {
  return renderWithProviders(page, { session, staleTime: Infinity });
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
});

describe('the download page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('links both zips by engine and version, as files the server answers, with the install steps', () => {
    const { container } = renderPage(<Download />);
    expect(screen.getByText('Howl plugin version 0.6.20')).toBeInTheDocument();
    expect(screen.getByText('Howl plugin version 0.9.7')).toBeInTheDocument();
    const godot3 = screen.getByRole('link', { name: 'Download the plugin for Godot 3.x, version 0.6.20' });
    const godot4 = screen.getByRole('link', { name: 'Download the plugin for Godot 4.x, version 0.9.7' });
    expect(godot3).toHaveAttribute('href', '/download/howl-godot3-0.6.20.zip');
    expect(godot3).toHaveAttribute('download', 'howl-godot3-0.6.20.zip');
    expect(godot4).toHaveAttribute('href', '/download/howl-godot4-0.9.7.zip');
    expect(godot4).toHaveAttribute('download', 'howl-godot4-0.9.7.zip');
    expect(container.querySelectorAll('a[href$=".zip"]')).toHaveLength(2);
    expect(screen.queryByText(/not available yet/)).toBeNull();

    const install = container.querySelector('section[aria-labelledby="install"]')!;
    expect(install).toHaveTextContent('res://addons/howl/plugin.cfg');
    expect(install).toHaveTextContent('Project → Project Settings → Plugins and enable Howl');
    expect(install).toHaveTextContent('adds the autoload Howl (res://addons/howl/Howl.gd)');
    expect(within(install as HTMLElement).getByRole('link', { name: 'above' })).toHaveAttribute('href', '#versions');
    expect(screen.getByRole('link', { name: 'features' })).toHaveAttribute('href', '/features');
  });

  it('shows each zip’s size from the list the build wrote beside them', async () => {
    const fetch = vi.fn(async () =>
      Response.json({
        downloads: [
          { engine: 'godot3', version: '0.6.20', file: 'howl-godot3-0.6.20.zip', bytes: 51_712, sha256: 'a' },
          { engine: 'godot4', version: '0.9.7', file: 'howl-godot4-0.9.7.zip', bytes: 800, sha256: 'b' },
        ],
      }),
    );
    vi.stubGlobal('fetch', fetch);
    renderPage(<Download />);
    expect(await screen.findByText('50.5 KB')).toBeInTheDocument();
    expect(screen.getByText('800 bytes')).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledWith('/download/downloads.json', expect.anything());
  });

  it('keeps the links when the list cannot be read, without sizes', async () => {
    const fetch = vi.fn(async () =>
      Response.json({ error: { code: 'NotFound', message: 'No such download' } }, { status: 404 }),
    );
    vi.stubGlobal('fetch', fetch);
    renderPage(<Download />);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(screen.getAllByRole('link', { name: /^Download the plugin for Godot/ })).toHaveLength(2);
    expect(screen.queryByText(/ KB$/)).toBeNull();
  });

  it('tells how to point a game at a self-hosted server, and what plain http:// needs on Android', () => {
    const { container } = renderPage(<Download />);
    const section = container.querySelector('section[aria-labelledby="self-hosting"]')!;
    expect(section).toHaveTextContent('base_url');
    expect(section).toHaveTextContent('http://localhost:8080');
    expect(section).toHaveTextContent(/cleartext traffic/);
    expect(within(section as HTMLElement).getByRole('link', { name: 'mobile export' })).toHaveAttribute(
      'href',
      '/mobileExport',
    );
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
    // The plugin zips are files the server answers, not routes of the site.
    for (const a of container.querySelectorAll<HTMLAnchorElement>('a[href^="/"][download]')) {
      expect(a.getAttribute('href')).toMatch(/^\/download\/howl-godot[34]-\d+\.\d+\.\d+\.zip$/);
    }
    const internal = [...container.querySelectorAll<HTMLAnchorElement>('a[href^="/"]:not([download])')];
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
