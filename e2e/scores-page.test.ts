/**
 * The Scores page as a developer uses it for a race game: add a board whose lowest time wins and which
 * keeps every run, save runs through /v1, read positions and the entry count, shrink it, delete it,
 * on a laptop and on a phone (nothing wider than the page, the actions on screen).
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SKIP, openSite, screenshots, type Site } from './support/browser.js';
import { developer, http, startHowl, type Howl } from './support/howl.js';

type Game = { game_id: string; api_key: string };

// Twelve runs in seconds: more than the default 10 entries, so "unlimited" shows.
const RUNS: [string, number][] = [
  ['ash', 61.2],
  ['birch', 45.8],
  ['cedar', 52.05],
  ['dune', 70.4],
  ['elm', 48.9],
  ['fern', 66.6],
  ['gale', 50.5],
  ['hazel', 73.1],
  ['iris', 55.55],
  ['juniper', 59],
  ['kestrel', 47.25],
  ['lark', 80],
];
const fastestFirst = [...RUNS].sort((a, b) => a[1] - b[1]);

/** Elements of the page's main column that reach past it, and whether the page scrolls sideways. */
async function overflow(page: Page): Promise<{ pageScrolls: boolean; past: string[] }> {
  // A string, run in the page: the e2e suites are typed without the DOM's types.
  return page.evaluate(`(() => {
    const right = document.querySelector('main').getBoundingClientRect().right;
    const past = [...document.querySelectorAll('main *')]
      .filter((el) => el.getBoundingClientRect().width > 1 && el.getBoundingClientRect().right > right + 0.5)
      .map((el) => (el.tagName.toLowerCase() + '.' + el.className).slice(0, 80));
    return { pageScrolls: document.documentElement.scrollWidth > window.innerWidth, past };
  })()`);
}

describe.skipIf(BROWSER_SKIP)('the Scores page in Chromium', { timeout: 180_000 }, () => {
  let howl: Howl;
  let site: Site;
  let page: Page;
  let errors: string[];
  let game: Game;

  beforeAll(async () => {
    howl = await startHowl();
    const cookie = await developer(howl, 'racer@example.com');
    game = (await http(howl, 'POST', '/api/games', { cookie, body: { name: 'Wolf Rally' } })).body;
    site = await openSite(howl, { cookie });
    ({ page, errors } = site);
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    await howl?.close();
  });

  const board = (): Locator => page.locator('section', { hasText: 'Race times' });
  const cell = (label: string) => board().locator(`dt:text-is("${label}") + dd`);

  it('adds a race board (lower is better, unlimited) from the Scores page and ranks the fastest first', async () => {
    await page.goto(`${howl.url}/dashboard/scores`);
    await page.getByRole('button', { name: 'Add leaderboard' }).click();
    const form = page.getByRole('form', { name: 'New leaderboard' });
    await form.getByLabel('Name', { exact: true }).fill('race');
    await form.getByLabel('Display name').fill('Race times');
    await form.getByLabel('Sort order').selectOption({ label: 'Lower is better (times)' });
    await form.getByLabel('Max entries').selectOption({ label: 'Unlimited' });
    await form.getByRole('button', { name: 'Submit' }).click();
    const saved = page.getByRole('form', { name: 'Leaderboard race' });
    await expect.poll(() => saved.textContent()).toContain('Configuration saved for leaderboard: race');
    await saved.getByRole('button', { name: 'Close' }).click();

    for (const [player_name, score] of RUNS) {
      const res = await http(howl, 'POST', '/v1/leaderboards/race/scores', { game, body: { player_name, score } });
      expect(res.status).toBe(200);
    }
    await page.reload();
    await expect.poll(() => cell('Entries').textContent()).toBe('12, no limit');
    expect(await cell('Order').textContent()).toBe('Lower first');
    await board().getByRole('button', { expanded: false }).click();
    const rows = board().locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(12);
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent)),
    );
    expect(shown).toEqual(fastestFirst.map(([name, time], i) => [String(i + 1), name, String(time)]));
    // No metadata was sent: the cell says so in plain text, there is nothing to click.
    expect(await rows.first().locator('td').nth(4).locator('button').count()).toBe(0);
    expect(await rows.first().locator('td').nth(4).textContent()).toBe('None');
  });

  it("fits at 1440, 1280 and 375 px, with each score's Delete on screen", async () => {
    for (const width of [1440, 1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(150);
      expect({ width, ...(await overflow(page)) }).toEqual({ width, pageScrolls: false, past: [] });
      const remove = board().locator('tbody tr').last().getByRole('button', { name: 'Delete' });
      const box = (await remove.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      const configure = (await board().getByRole('button', { name: 'Configure race' }).boundingBox())!;
      expect(configure.x + configure.width).toBeLessThanOrEqual(width);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshots(page, 'scores-page');
  });

  it('edits the board from its row: 10 entries keeps the ten fastest', async () => {
    await board().getByRole('button', { name: 'Configure race' }).click();
    const form = page.getByRole('form', { name: 'Leaderboard race' });
    expect(await form.getByLabel('Sort order').inputValue()).toBe('asc');
    expect(await form.getByLabel('Max entries').inputValue()).toBe('unlimited');
    await form.getByLabel('Max entries').selectOption('10');
    await form.getByRole('button', { name: 'Update' }).click();
    // Twelve entries, ten kept: the change says what it deletes and waits for the confirmation.
    const confirm = page.getByRole('dialog', { name: 'Update race?' });
    expect(await confirm.textContent()).toContain(
      'Each period keeps only its best 10 entries; the others are deleted.',
    );
    expect(await cell('Entries').textContent()).toBe('12, no limit');
    await confirm.getByRole('button', { name: 'Update and delete entries' }).click();
    await expect.poll(() => form.textContent()).toContain('Configuration saved for leaderboard: race');
    await expect.poll(() => cell('Entries').textContent()).toBe('10 of 10');
    // The open table follows: the two slowest runs are gone from it.
    await expect.poll(() => board().locator('tbody tr').count()).toBe(10);
    expect(await board().locator('tbody tr').last().locator('td').nth(1).textContent()).toBe('dune');
    await screenshots(page, 'scores-page-configure');
    const left = (await http(howl, 'GET', '/v1/leaderboards/race/scores?max=0', { game })).body.scores;
    expect(left.map((s: { player_name: string }) => s.player_name)).toEqual(
      fastestFirst.slice(0, 10).map(([name]) => name),
    );
  });

  it('deletes the board only once the confirmation is accepted', async () => {
    const form = page.getByRole('form', { name: 'Leaderboard race' });
    await form.getByRole('button', { name: 'Delete leaderboard' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete race?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await dialog.count()).toBe(0);
    expect((await http(howl, 'GET', '/v1/leaderboards/race/scores', { game })).status).toBe(200);

    await form.getByRole('button', { name: 'Delete leaderboard' }).click();
    await dialog.getByRole('button', { name: 'Delete leaderboard' }).click();
    await expect.poll(() => board().count()).toBe(0);
    const gone = await http(howl, 'POST', '/v1/leaderboards/race/scores', {
      game,
      body: { player_name: 'ash', score: 10 },
    });
    expect([gone.status, gone.body.error.code]).toEqual([404, 'LeaderboardNotFound']);
    expect(errors).toEqual([]);
  });
});
