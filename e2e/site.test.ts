import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SKIP, openSite, screenshots, sessionCookie, watchErrors, type Site } from './support/browser.js';
import { http, PASSWORD, startHowl, type Howl } from './support/howl.js';

const EMAIL = 'journey@example.com';
const NEW_PASSWORD = 'Moon-Howl2';

/** The text of the page's first alert, once one shows. */
async function alertText(page: Page): Promise<string> {
  const alert = page.getByRole('alert').first();
  await alert.waitFor();
  return (await alert.textContent()) ?? '';
}

describe.skipIf(BROWSER_SKIP)("a developer's journey through the site in Chromium", { timeout: 180_000 }, () => {
  let howl: Howl;
  let site: Site;
  let page: Page;
  let errors: string[];
  const cookie = () => sessionCookie(site.context);

  beforeAll(async () => {
    howl = await startHowl();
    site = await openSite(howl, { clipboard: true });
    ({ page, errors } = site);
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    await howl?.close();
  });

  it('signs up with every sign-up message of the spec on the way, confirms with the mailed code, and lands signed in', async () => {
    await page.goto(`${howl.url}/auth`);
    await page.getByRole('tab', { name: 'Sign up' }).click();
    const submit = () => page.getByRole('button', { name: 'Submit' }).click();
    await submit();
    expect(await alertText(page)).toBe('Please enter your first name and last name.');
    await page.getByLabel('First name').fill('Indie');
    await page.getByLabel('Last name').fill('Developer');
    await page.getByLabel('Email').fill('a@b');
    await submit();
    expect(await alertText(page)).toBe('Please enter a valid email address.');
    await page.getByLabel('Email').fill(` ${EMAIL.toUpperCase()} `);
    await page.getByLabel('Password', { exact: true }).fill('12345');
    await submit();
    expect(await alertText(page)).toBe('Please enter a valid password.');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill('Other-Pass1');
    await submit();
    expect(await alertText(page)).toBe("Passwords don't match.");
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await submit();
    expect(await alertText(page)).toBe('Please read and accept our Terms of service.');
    await page.locator('#accept-terms').check();
    await submit();

    await page.getByLabel('Confirmation code').waitFor();
    await screenshots(page, 'journey-confirmation-code');
    await page.getByLabel('Confirmation code').fill('000000');
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await alertText(page)).toBe('Invalid confirmation code');
    await page.getByLabel('Confirmation code').fill(howl.smtp.lastCode(EMAIL));
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Sign up complete' }).waitFor();
    expect((await http(howl, 'GET', '/api/auth/session', { cookie: await cookie() })).body.email).toBe(EMAIL);
  });

  it('creates a game, shows and copies its key, and configures a leaderboard (new row, Submit, Update)', async () => {
    await page.goto(`${howl.url}/features`);
    await page.getByLabel('Name of your game').fill('First Game');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('button', { name: 'View API key' }).click();
    const games = (await http(howl, 'GET', '/api/games', { cookie: await cookie() })).body;
    const gameId = games.current_game_id as string;
    const key = (await http(howl, 'GET', `/api/games/${gameId}/api-key`, { cookie: await cookie() })).body.api_key;
    await expect.poll(() => page.textContent('main')).toContain(key);
    const copy = page.getByRole('button', { name: 'Copy' }).first();
    await copy.click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await expect.poll(() => page.getByRole('button', { name: 'Copied!' }).count()).toBe(1);
    await expect.poll(() => page.getByRole('button', { name: 'Copied!' }).count(), { timeout: 3000 }).toBe(0);

    await page.getByRole('button', { name: 'Add leaderboard' }).click();
    const row = page.getByRole('form', { name: 'New leaderboard' });
    await row.getByLabel('Name', { exact: true }).fill('weekly');
    await row.getByLabel('Display name').fill('Weekly best');
    expect(await row.getByLabel('Timezone').count()).toBe(0);
    await row.getByLabel('Reset period').selectOption('weekly');
    expect(await row.getByLabel('Timezone').count()).toBe(1);
    await row.getByRole('button', { name: 'Submit' }).click();
    const saved = page.getByRole('form', { name: 'Leaderboard weekly' });
    await expect.poll(() => saved.textContent()).toContain('Configuration saved for leaderboard: weekly');
    await saved.getByLabel('Display name').fill('Weekly champions');
    await saved.getByRole('button', { name: 'Update' }).click();
    await expect
      .poll(async () => {
        const boards = (await http(howl, 'GET', `/api/games/${gameId}/leaderboards`, { cookie: await cookie() })).body;
        return boards.leaderboards.find((b: { name: string }) => b.name === 'weekly')?.display_name;
      })
      .toBe('Weekly champions');
    await screenshots(page, 'journey-leaderboard-config');
  });

  it('turns player authentication on and saves custom emails with the @@@@ placeholder', async () => {
    await page.goto(`${howl.url}/playerauth`);
    // The switch is a styled checkbox: a person clicks its label.
    await page.getByText('Player authentication is disabled').click();
    await page.getByLabel('Player authentication is enabled').waitFor();
    await page.getByRole('button', { name: 'Customise emails' }).click();
    await page.getByLabel('Confirmation email subject').fill('Welcome to First Game');
    await page.getByLabel('Confirmation email text').fill('Your code: @@@@\nSee you in the game');
    await page.getByRole('button', { name: 'Save emails' }).click();
    await expect.poll(() => page.textContent('main')).toContain('Your email confirmation settings were saved.');
    const gameId = (await http(howl, 'GET', '/api/games', { cookie: await cookie() })).body.current_game_id;
    const auth = (await http(howl, 'GET', `/api/games/${gameId}/player-auth`, { cookie: await cookie() })).body;
    expect(auth.enabled).toBe(true);
    const emails = (await http(howl, 'GET', `/api/games/${gameId}/player-auth/emails`, { cookie: await cookie() }))
      .body;
    expect(emails).toMatchObject({
      confirmation_subject: 'Welcome to First Game',
      confirmation_body: 'Your code: {{code}}\nSee you in the game',
    });
    await screenshots(page, 'journey-playerauth');
  });

  it('creates a second game and switches between the two', async () => {
    await page.goto(`${howl.url}/createNewGame`);
    await page.getByLabel('Name of your game').fill('Second Game With A Long Name');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => page.textContent('main')).toContain('Congrats');
    const before = (await http(howl, 'GET', '/api/games', { cookie: await cookie() })).body;
    const first = before.games.find((g: { name: string }) => g.name === 'First Game').game_id;
    expect(before.current_game_id).not.toBe(first);
    const switcher = page.getByLabel('Current game');
    await expect.poll(() => switcher.textContent()).toContain('Second Game ...');
    await switcher.selectOption(first);
    await expect
      .poll(async () => (await http(howl, 'GET', '/api/games', { cookie: await cookie() })).body.current_game_id)
      .toBe(first);
  });

  it('changes the password, signs out, resets it with the mailed code, and signs in with the new one', async () => {
    await page.goto(`${howl.url}/changepwd`);
    await page.getByLabel('Old password').fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('Step-Pass1');
    await page.getByLabel('Confirm new password').fill('Other-Pass1');
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await alertText(page)).toBe("The two new passwords you entered don't match.");
    await page.getByLabel('Confirm new password').fill('Step-Pass1');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).first().click();
    await page.waitForURL(`${howl.url}/auth`);
    expect(await cookie()).toBe('');

    await page.goto(`${howl.url}/forgotPassword`);
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await alertText(page)).toBe('Please enter your email address.');
    await page.getByLabel('Email').fill('not-an-address');
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await alertText(page)).toBe('Please enter a valid email address.');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByLabel('Confirmation code').waitFor();
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await alertText(page)).toBe('Please enter your confirmation code.');
    await page.getByLabel('Confirmation code').fill(howl.smtp.lastCode(EMAIL));
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').fill('Other-Pass1');
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await alertText(page)).toBe("The two new passwords you entered don't match.");
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(`${howl.url}/auth`);

    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill('Step-Pass1');
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await alertText(page)).toBe('Incorrect username or password');
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(`${howl.url}/features`);
    expect(await cookie()).not.toBe('');
  });

  it('sends a contact message as a developer (message only) and as a visitor (email and message)', async () => {
    await page.goto(`${howl.url}/contact`);
    expect(await page.getByLabel('Email').count()).toBe(0);
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await alertText(page)).toBe('Please enter a message');
    await page.getByLabel('Message').fill('Hello from a developer');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();

    const visitor = await site.browser.newPage();
    const visitorErrors = watchErrors(visitor);
    await visitor.goto(`${howl.url}/contact`);
    await visitor.getByLabel('Email').fill('nope');
    await visitor.getByLabel('Message').fill('Hello from a visitor');
    await visitor.getByRole('button', { name: 'Submit' }).click();
    expect(await alertText(visitor)).toBe('Please enter a valid email address');
    await visitor.getByLabel('Email').fill('visitor@example.com');
    await visitor.getByRole('button', { name: 'Submit' }).click();
    await visitor.getByRole('heading', { name: 'Thank you' }).waitFor();
    const support = await howl.smtp.waitFor('support@localhost', 2);
    expect(support.map((m) => m.raw).join('\n')).toContain('Hello from a visitor');
    expect(visitorErrors).toEqual([]);
    await visitor.close();
    // Expected 4xx answers of the journey (wrong code, wrong password) are logged by Chromium as failed loads.
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });
});
