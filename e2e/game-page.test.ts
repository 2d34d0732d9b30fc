import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SKIP, openSite, screenshots, sessionCookie, type Site } from './support/browser.js';
import { http, PASSWORD, startHowl, type Howl } from './support/howl.js';

const EMAIL = 'game-page@example.com';

/** GET /v1/ping as a game would call it, reporting its plugin and engine versions. */
async function ping(howl: Howl, gameId: string, apiKey: string): Promise<number> {
  const res = await fetch(`${howl.url}/v1/ping`, {
    headers: {
      'x-api-key': apiKey,
      'x-game-id': gameId,
      'x-howl-plugin-version': '0.9.7',
      'x-howl-engine': '4.2.1',
    },
  });
  return res.status;
}

describe.skipIf(BROWSER_SKIP)('a new game from sign-up to the Game page in Chromium', { timeout: 180_000 }, () => {
  let howl: Howl;
  let site: Site;
  let page: Page;
  let errors: string[];
  const cookie = () => sessionCookie(site.context);
  let gameId: string;
  let firstKey: string;

  beforeAll(async () => {
    howl = await startHowl();
    site = await openSite(howl, { clipboard: true });
    ({ page, errors } = site);
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    await howl?.close();
  });

  it('signs up, reaches Sign in while the code waits, confirms, and goes on to Create your first game', async () => {
    await page.goto(`${howl.url}/auth?mode=signup`);
    await page.getByLabel('First name').fill('Indie');
    await page.getByLabel('Last name').fill('Developer');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.locator('#accept-terms').check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();

    // The menu's Sign in reaches the form; the notice leads back to the code, which a reload keeps.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in to Howl' }).waitFor();
    await page.getByRole('link', { name: 'Enter the code' }).click();
    await page.reload();
    await page.getByLabel('Confirmation code').fill(howl.smtp.lastCode(EMAIL));
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Sign up complete' }).waitFor();

    await page.getByRole('link', { name: 'Create your first game' }).click();
    await page.waitForURL(`${howl.url}/createNewGame`);
  });

  it('creates a game and shows its key, its id and the next steps with both filled in', async () => {
    await page.getByLabel('Name of your game').fill('Howling Hills');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => page.textContent('main')).toContain('Congrats');
    const games = (await http(howl, 'GET', '/api/games', { cookie: await cookie() })).body;
    gameId = games.current_game_id;
    firstKey = (await http(howl, 'GET', `/api/games/${gameId}/api-key`, { cookie: await cookie() })).body.api_key;
    const steps = page.getByRole('region', { name: 'Next steps' });
    await expect.poll(() => steps.textContent()).toContain(`"api_key": "${firstKey}"`);
    expect(await steps.textContent()).toContain(`"game_id": "${gameId}"`);
    expect(await steps.textContent()).toContain(`"base_url": "${howl.url}"`);
    expect(await steps.getByRole('link', { name: 'Download the plugin' }).getAttribute('href')).toBe('/download');
    expect(await ping(howl, gameId, firstKey)).toBe(200);
    await screenshots(page, 'create-new-game-next-steps');
  });

  it('rotates the key from the Game page: the old key gets 403 on /v1/ping at once, the new one 200', async () => {
    await page.goto(`${howl.url}/dashboard/game`);
    // The ping above reported its versions; the page shows them.
    const versions = page.locator('section', { hasText: 'Plugin and engine seen' });
    await expect.poll(() => versions.textContent()).toContain('0.9.7');
    expect(await versions.textContent()).toContain('Godot 4.2.1');
    expect(await page.textContent('main')).not.toContain(firstKey);
    await page.getByRole('button', { name: 'View API key' }).click();
    await expect.poll(() => page.textContent('main')).toContain(firstKey);

    await page.getByRole('button', { name: 'Rotate API key' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('the old key stops working at once');
    await screenshots(page, 'dashboard-game-rotate');
    await dialog.getByRole('button', { name: 'Rotate key' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    const newKey = (await http(howl, 'GET', `/api/games/${gameId}/api-key`, { cookie: await cookie() })).body.api_key;
    expect(newKey).not.toBe(firstKey);
    await expect.poll(() => page.textContent('main')).toContain(newKey);
    expect(await page.textContent('main')).not.toContain(firstKey);
    expect(await ping(howl, gameId, firstKey)).toBe(403);
    expect(await ping(howl, gameId, newKey)).toBe(200);
  });

  it('toggles refusing deletes from game clients and the server stores it', async () => {
    const stored = async () =>
      (await http(howl, 'GET', `/api/games/${gameId}`, { cookie: await cookie() })).body.allow_client_deletes;
    const refuse = page.getByRole('checkbox', { name: 'Refuse deletes and wipes from game clients' });
    expect(await refuse.isChecked()).toBe(true);
    expect(await stored()).toBe(false);
    await refuse.click();
    await expect.poll(stored).toBe(true);
    await expect.poll(() => refuse.isChecked()).toBe(false);
    await page.reload();
    await expect.poll(() => page.getByRole('checkbox', { name: /Refuse deletes/ }).isChecked()).toBe(false);
    await screenshots(page, 'dashboard-game');
    await page.getByRole('checkbox', { name: /Refuse deletes/ }).click();
    await expect.poll(stored).toBe(false);
    expect(errors).toEqual([]);
  });
});
