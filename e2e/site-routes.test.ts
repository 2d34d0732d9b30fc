import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SKIP, launchBrowser, openPage, screenshots } from './support/browser.js';
import { developer, http, startHowl, type Howl } from './support/howl.js';

/** Every route of the public layout (spec 2.1, with the product's name in /callingHowl) and the dashboard's (2.2). */
const PUBLIC_ROUTES = [
  '/',
  '/features',
  '/auth',
  '/forgotPassword',
  '/emailSent',
  '/terms',
  '/privacy',
  '/contact',
  '/emailConfirmed',
  '/changepwd',
  '/download',
  '/troubleshooting',
  '/callingHowl',
  '/cSharp',
  '/csharp',
  '/mobileExport',
  '/leaderboard',
  '/playerauth',
  '/playerdata',
  '/createNewGame',
  '/homepage.html',
  '/blog/godot-4',
];
const DASHBOARD_ROUTES = [
  '/dashboard',
  '/dashboard/game',
  '/dashboard/players',
  '/dashboard/scores',
  '/dashboard/multiplayer',
];
const KNOWN = new Set([...PUBLIC_ROUTES, ...DASHBOARD_ROUTES]);

/** The site's own links on the page, without query or hash. */
async function internalLinks(page: Page): Promise<string[]> {
  const hrefs = await page.$$eval('a[href]', (as) => as.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.filter((h) => h.startsWith('/') && !h.startsWith('//')).map((h) => h.split(/[?#]/)[0]!);
}

describe.skipIf(BROWSER_SKIP)('every route of the site in Chromium', { timeout: 180_000 }, () => {
  let howl: Howl;
  let browser: Browser;
  let cookie: string;

  beforeAll(async () => {
    howl = await startHowl();
    browser = await launchBrowser();
    cookie = await developer(howl, 'routes@example.com');
    await http(howl, 'POST', '/api/games', { cookie, body: { name: 'A game with a long name' } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await howl?.close();
  });

  for (const signedIn of [false, true]) {
    it(`loads every route ${signedIn ? 'signed in' : 'signed out'} with no console error and no link to an unknown route`, async () => {
      const { context, page, errors } = await openPage(browser, howl, { cookie: signedIn ? cookie : undefined });
      const unknown: string[] = [];
      const files = new Set<string>();
      for (const route of signedIn ? [...PUBLIC_ROUTES, ...DASHBOARD_ROUTES] : PUBLIC_ROUTES) {
        await page.goto(howl.url + route, { waitUntil: 'networkidle' });
        // A page whose code loads lazily may render its heading a moment after the network is idle.
        await page
          .locator('h1')
          .first()
          .waitFor({ timeout: 10_000 })
          .catch(() => undefined);
        expect(await page.locator('h1').count(), `${route} has a heading`).toBeGreaterThan(0);
        for (const link of await internalLinks(page)) {
          // The plugin zips are files the server sends, not routes of the site: each must download.
          if (link.startsWith('/download/')) files.add(link);
          else if (!KNOWN.has(link)) unknown.push(`${route} → ${link}`);
        }
        await screenshots(page, `${signedIn ? 'in' : 'out'}${route === '/' ? '-home' : route.replaceAll('/', '-')}`);
      }
      expect(unknown).toEqual([]);
      expect(errors).toEqual([]);
      expect([...files].sort()).toEqual(['/download/howl-godot3-0.6.20.zip', '/download/howl-godot4-0.9.7.zip']);
      for (const file of files) {
        const res = await fetch(howl.url + file);
        expect([res.status, res.headers.get('content-type')], file).toEqual([200, 'application/zip']);
        expect((await res.arrayBuffer()).byteLength, file).toBeGreaterThan(1000);
      }
      await context.close();
    });
  }

  it('shows the features home for an unknown path', async () => {
    const page = await browser.newPage();
    await page.goto(`${howl.url}/no/such/page`, { waitUntil: 'networkidle' });
    const home = await browser.newPage();
    await home.goto(`${howl.url}/`, { waitUntil: 'networkidle' });
    expect(await page.textContent('main')).toBe(await home.textContent('main'));
    await page.close();
    await home.close();
  });
});
