import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = new URL('../screenshots', import.meta.url).pathname;
/** Screenshots are for people to look at; `E2E_SCREENSHOTS=0` (CI, whose clone nobody opens) skips them. */
export const TAKING_SCREENSHOTS = process.env.E2E_SCREENSHOTS !== '0';

/** Why the browser suites are skipped here, if they are: Debian's chromium is not installed. */
export const BROWSER_SKIP: string | false = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is missing (apt-get install chromium)`;
if (BROWSER_SKIP && process.env.REQUIRE_SERVICES === '1') throw new Error(`REQUIRE_SERVICES=1 but ${BROWSER_SKIP}`);

/** Real Chromium, headless, with the flags this machine's closed network needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Collects console errors and uncaught exceptions of a page, for tests that must see none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

export interface SiteOptions extends BrowserContextOptions {
  /** A developer's `howl_session` cookie: the page opens signed in. */
  cookie?: string;
  /** Lets the page read and write the clipboard, for the copy buttons. */
  clipboard?: boolean;
}

/** A page of the site in a context of its own, with the console errors it logs. */
export interface SitePage {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/** A page in a fresh context of `browser`, 1440 × 900 unless `viewport` says otherwise. */
export async function openPage(browser: Browser, howl: { url: string }, options: SiteOptions = {}): Promise<SitePage> {
  const { cookie, clipboard, ...contextOptions } = options;
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...contextOptions });
  if (cookie) await context.addCookies([{ name: 'howl_session', value: cookie, url: howl.url }]);
  if (clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: howl.url });
  const page = await context.newPage();
  return { context, page, errors: watchErrors(page) };
}

/** Chromium with one page of the site open; `close` closes the browser. */
export interface Site extends SitePage {
  browser: Browser;
  close: () => Promise<void>;
}

/** Chromium launched and one page of the site open in it (see `openPage`); `close` closes the browser. */
export async function openSite(howl: { url: string }, options: SiteOptions = {}): Promise<Site> {
  const browser = await launchBrowser();
  try {
    return { browser, ...(await openPage(browser, howl, options)), close: () => browser.close() };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** The `howl_session` cookie a context holds once its page has signed in, or ''. */
export async function sessionCookie(context: BrowserContext): Promise<string> {
  return (await context.cookies()).find((c) => c.name === 'howl_session')?.value ?? '';
}

/** Saves a full-page screenshot at 1440 and 375 px wide into e2e/screenshots (git-ignored). */
export async function screenshots(page: Page, name: string): Promise<void> {
  if (!TAKING_SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  const original = page.viewportSize();
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}
