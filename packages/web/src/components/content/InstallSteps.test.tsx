// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Download } from '../../pages/Download.js';
import { renderWithProviders } from '../../test/render.js';
import { LeaderboardDocs } from '../leaderboards/LeaderboardDocs.js';
import { PlayerAuthDocs } from '../players/PlayerAuthDocs.js';
import { PlayerDataDocs } from '../players/PlayerDataDocs.js';

// The panels inside the guides load settings; no server here, so every call answers 404.
beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ error: { code: 'NotFound', message: 'Not found.' } }, { status: 404 })),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The install steps as a page shows them: the list of the section that holds `plugin.cfg`. */
function installSteps(page: ReactElement): string[] {
  const { container } = renderWithProviders(page);
  const lists = [...container.querySelectorAll('section ol')].filter((ol) =>
    ol.textContent?.includes('res://addons/howl/plugin.cfg'),
  );
  expect(lists).toHaveLength(1);
  const steps = [...lists[0]!.querySelectorAll(':scope > li')].map((li) => li.textContent ?? '');
  cleanup();
  return steps;
}

describe('the install steps', () => {
  const pages: [string, ReactElement][] = [
    ['/leaderboard', <LeaderboardDocs key="l" gameId="g1" />],
    ['/playerauth', <PlayerAuthDocs key="a" gameId="g1" />],
    ['/playerdata', <PlayerDataDocs key="d" />],
  ];

  it('are the same on /download and on every guide, and say unzip, enable the plugin, configure', () => {
    const download = installSteps(<Download />);
    expect(download).toEqual([
      "Download the zip for your engine (above) and unzip it into your project's folder, so that res://addons/howl/plugin.cfg exists.",
      'In Godot, open Project → Project Settings → Plugins and enable Howl. This adds the autoload Howl (res://addons/howl/Howl.gd), so every script of your game reaches the plugin as Howl.',
      "Call Howl.configure once, before the first call (for example in your first scene's _ready), with your game's API key and game id.",
    ]);
    for (const [, page] of pages) {
      const steps = installSteps(page);
      expect(steps[0]).toBe(
        "Download the zip for your engine (Godot 3.x or 4.x) and unzip it into your project's folder, so that res://addons/howl/plugin.cfg exists.",
      );
      expect(steps.slice(1)).toEqual(download.slice(1));
    }
  });

  it.each(pages)('on %s link to /download and never ask for an autoload by hand', (_path, page) => {
    const { container } = renderWithProviders(page);
    const install = container.querySelector('section#install')!;
    expect(install.querySelector('a[href="/download"]')).toHaveTextContent('Download the zip');
    expect(container).not.toHaveTextContent(/Globals → Autoload|AutoLoad|howl\.gd\b/);
  });
});
