import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SKIP, openSite, type Site } from './support/browser.js';
import { developer, http, PASSWORD, startHowl, type Howl } from './support/howl.js';

const EMAIL = 'navigation@example.com';

// Issue 14, item 11: the guide and the Scores dashboard read the same boards in one cached list.
describe.skipIf(BROWSER_SKIP)(
  'the leaderboard guide and the Scores dashboard in Chromium',
  { timeout: 120_000 },
  () => {
    let howl: Howl;
    let site: Site;
    let page: Page;
    let errors: string[];
    let cookie: string;
    let gameId: string;

    beforeAll(async () => {
      howl = await startHowl();
      cookie = await developer(howl, EMAIL);
      const game = (await http(howl, 'POST', '/api/games', { cookie, body: { name: 'Navigation Run' } })).body;
      gameId = game.game_id;
      // Every new game has a board named main.
      const named = await http(howl, 'PUT', `/api/games/${gameId}/leaderboards/main`, {
        cookie,
        body: { display_name: 'Main board' },
      });
      expect(named.status).toBe(200);
      await http(howl, 'POST', '/v1/leaderboards/main/scores', { game, body: { player_name: 'wolf', score: 42 } });
      site = await openSite(howl);
      ({ page, errors } = site);
    }, 120_000);
    afterAll(async () => {
      await site?.close();
      await howl?.close();
    });

    it('goes from /leaderboard to the Scores dashboard by its link and back, with no console error', async () => {
      await page.goto(`${howl.url}/auth`);
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.waitForURL(`${howl.url}/features`);

      await page.goto(`${howl.url}/leaderboard`);
      await page.getByRole('form', { name: 'Leaderboard main' }).waitFor();
      await page.getByRole('link', { name: 'Scores dashboard' }).click();
      await page.waitForURL(`${howl.url}/dashboard/scores`);
      await openScores();

      await page.goBack();
      await page.waitForURL(`${howl.url}/leaderboard`);
      await saveDisplayName('Main champions');

      // The save refreshes the dashboard's list too: it shows the new name without a reload.
      await page.goForward();
      await page.waitForURL(`${howl.url}/dashboard/scores`);
      await expect.poll(() => page.textContent('main')).toContain('Main champions');
      expect(errors).toEqual([]);
    });

    it("goes from the Scores dashboard to the signed-in home page's configuration form", async () => {
      errors.length = 0;
      await page.goto(`${howl.url}/dashboard/scores`);
      await openScores();
      await page.getByRole('link', { name: 'Howl dashboard' }).click();
      await page.waitForURL(`${howl.url}/features`);
      await saveDisplayName('Main legends');
      expect(errors).toEqual([]);
    });

    /** Opens the board on the Scores dashboard and waits for its score; a crash shows as the console's error. */
    async function openScores() {
      const row = page.locator('section', { hasText: /Main (board|champions|legends)/ });
      await expect.poll(async () => errors.length > 0 || (await row.count()) > 0, { timeout: 15_000 }).toBe(true);
      expect(errors).toEqual([]);
      await row.getByRole('button', { expanded: false }).click();
      await expect.poll(() => row.locator('tbody tr').count()).toBe(1);
      expect(await row.locator('tbody tr').textContent()).toContain('wolf');
      expect(errors).toEqual([]);
    }

    /** Saves a new display name through the configuration form, then checks the server has it. */
    async function saveDisplayName(name: string) {
      const form = page.getByRole('form', { name: 'Leaderboard main' });
      await expect.poll(async () => errors.length > 0 || (await form.count()) > 0, { timeout: 15_000 }).toBe(true);
      expect(errors).toEqual([]);
      await form.getByLabel('Display name').fill(name);
      await form.getByRole('button', { name: 'Update' }).click();
      await expect.poll(() => form.textContent()).toContain('Configuration saved for leaderboard: main');
      const boards = (await http(howl, 'GET', `/api/games/${gameId}/leaderboards`, { cookie })).body;
      expect(boards.leaderboards.map((b: { display_name: string }) => b.display_name)).toEqual([name]);
    }
  },
);
