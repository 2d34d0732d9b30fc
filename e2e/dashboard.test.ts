import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../packages/server/src/db/database.js';
import { BROWSER_SKIP, openSite, screenshots, type Site } from './support/browser.js';
import { developer, http, PASSWORD, startHowl, type Howl } from './support/howl.js';

type Game = { game_id: string; api_key: string };

describe.skipIf(BROWSER_SKIP)('the dashboard in Chromium', { timeout: 120_000 }, () => {
  let howl: Howl;
  let site: Site;
  let page: Page;
  let errors: string[];
  let cookie: string;
  let game: Game;

  beforeAll(async () => {
    howl = await startHowl();
    cookie = await developer(howl, 'dashboard@example.com');
    game = (await http(howl, 'POST', '/api/games', { cookie, body: { name: 'Dashboard Run' } })).body;
    site = await openSite(howl, { cookie, acceptDownloads: true });
    ({ page, errors } = site);
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    await howl?.close();
  });

  it('pages through 60 scores, shows metadata, deletes a score (gone from the game API too), and wipes', async () => {
    await http(howl, 'POST', `/api/games/${game.game_id}/leaderboards`, {
      cookie,
      body: { name: 'all', display_name: 'All runs', insert_option: 'keep', time_based: 'na', max_entries: 1000 },
    });
    for (let i = 1; i <= 60; i++) {
      const body = {
        player_name: `runner${i}`,
        score: i * 10,
        ...(i === 60 ? { metadata: { level: 9, boss: { name: 'The Great Howling Wolf' } } } : {}),
      };
      await http(howl, 'POST', '/v1/leaderboards/all/scores', { game, body });
    }
    await page.goto(`${howl.url}/dashboard/scores`);
    const row = page.locator('section', { hasText: 'All runs' });
    await row.getByRole('button', { expanded: false }).click();
    await expect.poll(() => row.locator('tbody tr').count()).toBe(50);
    await row.getByRole('button', { name: 'Load more scores' }).click();
    await expect.poll(() => row.locator('tbody tr').count()).toBe(60);
    await screenshots(page, 'dashboard-scores');

    await row.getByRole('button', { name: 'Metadata of the score of runner60' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.textContent()).toContain('boss.name');
    expect(await dialog.textContent()).toContain('The Great Howling Wo...');
    await dialog.getByRole('button', { name: 'Close' }).click();

    const target = row.locator('tr', { hasText: 'runner59' });
    await target.getByRole('button', { name: 'Delete' }).click();
    expect(await dialog.textContent()).toContain('runner59');
    expect(await dialog.textContent()).toContain('590');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => row.locator('tr', { hasText: 'runner59' }).count()).toBe(0);
    // The scores below it move up a place, on the page loaded first and on the one loaded after it.
    const position = (name: string) =>
      row
        .locator('tr')
        .filter({ has: page.getByRole('cell', { name, exact: true }) })
        .locator('td')
        .first();
    await expect.poll(() => position('runner58').textContent()).toBe('2');
    await expect.poll(() => position('runner1').textContent()).toBe('59');
    await expect.poll(() => row.locator('tbody tr').count()).toBe(59);
    const left = await http(howl, 'GET', '/v1/leaderboards/all/players/runner59/scores', { game });
    expect(left.body.scores).toEqual([]);

    await row.getByRole('button', { name: 'Wipe leaderboard' }).click();
    await dialog.getByRole('button', { name: 'Wipe leaderboard' }).click();
    await expect.poll(() => row.textContent()).toContain('No scores for this leaderboard');
    expect((await http(howl, 'GET', '/v1/leaderboards/all/scores', { game })).body.scores).toEqual([]);
  });

  it("shows a time-based board's previous period", async () => {
    await http(howl, 'POST', `/api/games/${game.game_id}/leaderboards`, {
      cookie,
      body: {
        name: 'season',
        display_name: 'Season',
        insert_option: 'highest',
        time_based: 'yearly',
        timezone: 'UTC',
        max_entries: 100,
      },
    });
    await http(howl, 'POST', '/v1/leaderboards/season/scores', { game, body: { player_name: 'this-year', score: 5 } });
    // Last year's score is written straight into the database: the server's clock cannot be moved.
    const database = createDatabase(`sqlite:${howl.dbFile}`);
    try {
      const board = await database.db
        .selectFrom('leaderboards')
        .select('id')
        .where('game_id', '=', game.game_id)
        .where('name', '=', 'season')
        .executeTakeFirstOrThrow();
      const lastYear = Date.UTC(new Date().getUTCFullYear() - 1, 0, 1);
      await database.db
        .insertInto('scores')
        .values({
          id: 'last-year-score',
          leaderboard_id: board.id,
          period_start: lastYear,
          player_name: 'last-year',
          player_key: 'last-year',
          score: 77,
          timestamp: lastYear + 1000,
          metadata: null,
          engine: 4,
        })
        .execute();
    } finally {
      await database.destroy();
    }
    await page.goto(`${howl.url}/dashboard/scores`);
    const row = page.locator('section', { hasText: 'Season' });
    await row.getByRole('button', { expanded: false }).click();
    await expect.poll(() => row.textContent()).toContain('this-year');
    await row.getByLabel('Period').selectOption({ label: 'Previous period' });
    await expect.poll(() => row.textContent()).toContain('last-year');
    expect(await row.textContent()).not.toContain('this-year');
  });

  it('manages players: load more, data, disable, enable, set password, delete, export', async () => {
    await http(howl, 'PUT', `/api/games/${game.game_id}/player-auth`, {
      cookie,
      body: { enabled: true, email_confirmation: false },
    });
    for (let i = 1; i <= 30; i++) {
      const player_name = `hunter${String(i).padStart(2, '0')}`;
      await http(howl, 'POST', '/v1/players', {
        game,
        body: { player_name, email: `${player_name}@example.com`, password: PASSWORD, confirm_password: PASSWORD },
      });
    }
    await http(howl, 'PUT', '/v1/player-data/hunter01', {
      game,
      body: { player_data: { level: 12, pack: ['grey', 'white'] } },
    });
    await http(howl, 'PUT', '/v1/player-data/hunter01/characters/Scout', { game, body: { player_data: { hp: 3 } } });
    const login = await http(howl, 'POST', '/v1/players/login', {
      game,
      body: { player_name: 'hunter02', password: PASSWORD },
    });
    const token = login.body.access_token as string;

    await page.goto(`${howl.url}/dashboard/players`);
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(25);
    await page.getByRole('button', { name: 'Load more players' }).click();
    await expect.poll(() => rows.count()).toBe(30);
    expect(await page.getByRole('button', { name: 'Load more players' }).count()).toBe(0);
    await screenshots(page, 'dashboard-players');

    const dialog = page.getByRole('dialog');
    await page.getByRole('button', { name: 'Player data of hunter01' }).click();
    await expect.poll(() => dialog.textContent()).toContain('"level": 12');
    await dialog.getByRole('button', { name: 'Close' }).click();

    const hunter02 = page.locator('tr', { hasText: 'hunter02' });
    await hunter02.getByRole('button', { name: 'Disable' }).click();
    await dialog.getByRole('button', { name: 'Disable player' }).click();
    await expect.poll(() => hunter02.textContent()).toContain('Disabled');
    expect((await http(howl, 'GET', '/v1/players/me', { game, token })).status).toBe(401);
    await hunter02.getByRole('button', { name: 'Enable' }).click();
    await dialog.getByRole('button', { name: 'Enable player' }).click();
    await expect.poll(() => hunter02.textContent()).toContain('Enabled');

    await hunter02.getByRole('button', { name: 'Change password' }).click();
    await dialog.getByRole('button', { name: 'Change password' }).click();
    expect(await dialog.textContent()).toContain('Please enter a new password for this player.');
    await dialog.getByLabel('New password for hunter02').fill('Fresh-Pass9');
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const relogin = await http(howl, 'POST', '/v1/players/login', {
      game,
      body: { player_name: 'hunter02', password: 'Fresh-Pass9' },
    });
    expect(relogin.status).toBe(200);

    await page.locator('tr', { hasText: 'hunter03' }).getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete player' }).click();
    await expect.poll(() => page.locator('tr', { hasText: 'hunter03' }).count()).toBe(0);
    expect(
      (await http(howl, 'POST', '/v1/players/login', { game, body: { player_name: 'hunter03', password: PASSWORD } }))
        .status,
    ).toBe(401);

    await page.getByRole('button', { name: 'Fetch all player data for game (experimental)' }).click();
    const link = page.getByRole('link', { name: 'Download player data as JSON' });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('playerdata.json');
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(exported.game_id).toBe(game.game_id);
    expect(exported.players).toEqual([
      {
        player_name: 'hunter01',
        player_data: { level: 12, pack: ['grey', 'white'] },
        characters: { Scout: { hp: 3 } },
      },
    ]);
  });

  it('shows the game, and deleting it lands on / with the game gone', async () => {
    await page.goto(`${howl.url}/dashboard/multiplayer`);
    await expect.poll(() => page.textContent('main')).toContain('Coming soon!');
    await screenshots(page, 'dashboard-multiplayer');
    await page.goto(`${howl.url}/dashboard/game`);
    await expect.poll(() => page.textContent('main')).toContain(game.game_id);
    expect(await page.textContent('main')).toContain('Dashboard Run');
    await screenshots(page, 'dashboard-game');
    await page.getByRole('button', { name: 'Delete this game' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('There is no way back.');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`${howl.url}/`);
    expect((await http(howl, 'GET', '/api/games', { cookie })).body.games).toEqual([]);
    await page.goto(`${howl.url}/dashboard/game`);
    await expect.poll(() => page.textContent('main')).toContain('No game selected yet');
    expect(errors).toEqual([]);
  });

  it('tells a signed-out visitor to sign in before deleting a game', async () => {
    const visitor = await site.browser.newPage();
    await visitor.goto(`${howl.url}/dashboard/game`);
    await expect.poll(() => visitor.textContent('main')).toContain('You must be logged in to delete a game.');
    await visitor.close();
  });
});
