// overflows() runs in the page: the DOM types for it.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SKIP, openPage, openSite, TAKING_SCREENSHOTS, type Site } from './support/browser.js';
import { developer, http, PASSWORD, startHowl, type Howl } from './support/howl.js';

const WIDTHS = [1440, 1280, 375] as const;
// Git-ignored, like the other suites' screenshots: looked at, never committed.
const SHOTS = new URL('./screenshots/layout/', import.meta.url).pathname;

const LONG_NAME = 'Wolfgang-Amadeus-the-Howling-Night-Runner-of-the-Northern-Pack';
const LONG_EMAIL = 'wolfgang.amadeus.the.howling.night.runner@northern-pack-example.com';

/**
 * Every visible element that passes the viewport's right edge, or whose content is wider than a box
 * that does not scroll. Code blocks may scroll inside the text column; ellipses and screen-reader-only
 * text clip on purpose.
 */
function overflows(root: string): string[] {
  const viewport = document.documentElement.clientWidth;
  const found: string[] = [];
  const flagged: Element[] = [];
  const name = (el: Element) => {
    const cls = typeof el.className === 'string' ? el.className.split(/\s+/).slice(0, 4).join('.') : '';
    const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `<${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}> "${text}"`;
  };
  for (const el of document.querySelectorAll(`${root} *`)) {
    // One line per overflowing box: what it holds is not listed again.
    if (flagged.some((f) => f.contains(el))) continue;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
    if (el.closest('pre') && getComputedStyle(el.closest('pre')!).overflowX !== 'visible') continue;
    if (style.position === 'absolute' && box.width <= 1) continue; // sr-only
    if (box.right > viewport + 1) {
      found.push(`${name(el)} ends at ${Math.round(box.right)} px, past the ${viewport} px viewport`);
      flagged.push(el);
      continue;
    }
    const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';
    if (
      !scrolls &&
      style.textOverflow !== 'ellipsis' &&
      el.scrollWidth > el.clientWidth + 1 &&
      el.clientWidth > 0 &&
      (style.overflowX !== 'visible' || passesRight(el))
    ) {
      found.push(`${name(el)} holds ${el.scrollWidth} px in ${el.clientWidth} px`);
      flagged.push(el);
    }
  }
  return found;

  /** Whether what flows in a visible-overflow box (not a drop-down laid over it) passes its right edge. */
  function passesRight(el: Element): boolean {
    const right = el.getBoundingClientRect().left + el.clientLeft + el.clientWidth + 1;
    for (const child of el.childNodes) {
      if (child instanceof Element) {
        const position = getComputedStyle(child).position;
        if (position !== 'absolute' && position !== 'fixed' && child.getBoundingClientRect().right > right) return true;
      } else if (child.nodeType === Node.TEXT_NODE) {
        const range = document.createRange();
        range.selectNodeContents(child);
        if (range.getBoundingClientRect().right > right) return true;
      }
    }
    return false;
  }
}

describe.skipIf(BROWSER_SKIP)('the dashboard fits at 1440, 1280 and 375 px', { timeout: 180_000 }, () => {
  let howl: Howl;
  let site: Site;
  let page: Page;
  let errors: string[];

  /** Screenshots the page at each width and collects what overflows there. */
  async function check(
    name: string,
    open: () => Promise<void>,
    prepare?: (width: number) => Promise<void>,
    root = 'body',
  ) {
    const problems: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await open();
      await prepare?.(width);
      await page.waitForTimeout(150);
      if (TAKING_SCREENSHOTS)
        await page.screenshot({ path: `${SHOTS}${name}-${width}.png`, fullPage: root === 'body' });
      problems.push(...(await page.evaluate(overflows, root)).map((p) => `${name} at ${width} px: ${p}`));
    }
    return problems;
  }
  const visit = (path: string, text: string) => async () => {
    await page.goto(`${howl.url}${path}`);
    await expect.poll(() => page.textContent('main'), { timeout: 10_000 }).toContain(text);
  };

  beforeAll(async () => {
    if (TAKING_SCREENSHOTS) mkdirSync(SHOTS, { recursive: true });
    howl = await startHowl();
    const cookie = await developer(howl, 'layout.developer.with.a.long.address@example.com');
    const game = (
      await http(howl, 'POST', '/api/games', {
        cookie,
        body: { name: 'The Howling Wolves of the Northern Pack: Deluxe' },
      })
    ).body as { game_id: string; api_key: string };
    const gameId = game.game_id;

    await http(howl, 'POST', `/api/games/${gameId}/leaderboards`, {
      cookie,
      body: {
        name: 'fastest_runs_of_the_northern_pack_season',
        display_name: 'Fastest runs of the whole Northern Pack season',
        insert_option: 'highest',
        time_based: 'weekly',
        timezone: 'America/Argentina/ComodRivadavia',
        max_entries: 1000,
      },
    });
    for (let i = 1; i <= 12; i++) {
      await http(howl, 'POST', '/v1/leaderboards/fastest_runs_of_the_northern_pack_season/scores', {
        game,
        body: {
          player_name: i === 1 ? LONG_NAME : `runner${i}`,
          score: 1_000_000_000 + i,
          ...(i % 3 === 0 ? { metadata: { character: 'A mage with a very long name indeed', level: i } } : {}),
        },
      });
    }
    await http(howl, 'POST', '/v1/leaderboards/main/scores', { game, body: { player_name: 'main-runner', score: 5 } });

    await http(howl, 'PUT', `/api/games/${gameId}/player-auth`, {
      cookie,
      body: { enabled: true, email_confirmation: true },
    });
    for (const [player_name, email] of [
      [LONG_NAME, LONG_EMAIL],
      ['amy', 'amy@example.com'],
    ]) {
      await http(howl, 'POST', '/v1/players', {
        game,
        body: { player_name, email, password: PASSWORD, confirm_password: PASSWORD },
      });
    }
    await http(howl, 'PUT', `/v1/player-data/${LONG_NAME}`, {
      game,
      body: { player_data: { inventory: ['a-very-long-sword-of-the-northern-pack', 'shield'], gold: 123456789 } },
    });
    await http(howl, 'PUT', '/v1/player-data/a-guest-without-any-account-who-saved-data', {
      game,
      body: { player_data: { guest: true } },
    });

    site = await openSite(howl, { cookie });
    ({ page, errors } = site);
  }, 180_000);
  afterAll(async () => {
    await site?.close();
    await howl?.close();
  });

  it('Players: every column and the actions fit, on a phone as a card per player', async () => {
    const problems = await check('players', visit('/dashboard/players', 'amy'), async () => {
      // Actions of every row, the data-only name's included, are on screen without scrolling sideways.
      for (const button of await page.getByRole('button', { name: /^(Delete|Delete data)$/ }).all()) {
        const box = (await button.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
      }
    });
    expect(problems).toEqual([]);
    expect(await page.getByRole('button', { name: 'Delete data' }).count()).toBe(1);
  });

  it('Players: a name with data but no account is deleted from the list', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await visit('/dashboard/players', 'amy')();
    const guest = page.locator('tr', { hasText: 'a-guest-without-any-ac...' });
    await guest.getByRole('button', { name: 'Delete data' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete player data' }).click();
    await expect.poll(() => guest.count()).toBe(0);
  });

  it('Game page fits', async () => {
    expect(await check('game', visit('/dashboard/game', 'Delete this game'))).toEqual([]);
  });

  it('Scores page fits, with every board open', async () => {
    const open = async () => {
      await visit('/dashboard/scores', 'Fastest runs')();
      const closed = page.locator('main').getByRole('button', { expanded: false });
      for (let i = 0; i < 10 && (await closed.count()) > 0; i++) await closed.first().click();
      await expect.poll(() => page.textContent('main')).toContain('runner12');
    };
    expect(await check('scores', open)).toEqual([]);
  });

  it('Multiplayer page fits', async () => {
    expect(await check('multiplayer', visit('/dashboard/multiplayer', 'Coming soon!'))).toEqual([]);
  });

  it('the signed-in navigation fits and reaches the three guides', async () => {
    const problems = await check(
      'signed-in-nav',
      visit('/features', ''),
      async (width) => {
        // The mobile menu open below 1280 px; above, the guides' drop-down under Features open.
        if (width < 1280) await page.getByRole('button', { name: 'Open menu' }).click();
        else await page.getByRole('navigation', { name: 'Main' }).getByLabel('Guides').click();
        // Each entry on one line: a wrapped entry is a sign the bar is too full.
        const nav = page.getByRole('navigation', { name: width < 1280 ? 'Mobile' : 'Main' });
        for (const link of await nav.getByRole('link').all())
          expect((await link.boundingBox())!.height, (await link.textContent()) ?? undefined).toBeLessThan(40);
      },
      // The guides' own pages and code blocks are another part of the issue; this checks the header.
      'header',
    );
    expect(problems).toEqual([]);
    await page.setViewportSize({ width: 1440, height: 900 });
    for (const [label, path] of [
      ['Leaderboards', '/leaderboard'],
      ['Player accounts', '/playerauth'],
      ['Player Data', '/playerdata'],
    ]) {
      await page.goto(`${howl.url}/features`);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByLabel('Guides').click();
      await nav.getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL(`${howl.url}${path}`);
    }
    // A click elsewhere closes the drop-down.
    await page.goto(`${howl.url}/features`);
    const main = page.getByRole('navigation', { name: 'Main' });
    await main.getByLabel('Guides').click();
    await expect.poll(() => main.getByRole('link', { name: 'Player Data' }).isVisible()).toBe(true);
    await page.locator('main h1').click();
    await expect.poll(() => main.getByRole('link', { name: 'Player Data' }).isVisible()).toBe(false);
    expect(errors).toEqual([]);
  });

  it('Players with none yet: says why and links to the player authentication setting', async () => {
    const cookie = await developer(howl, 'empty.players@example.com');
    await http(howl, 'POST', '/api/games', { cookie, body: { name: 'Quiet Game' } });
    const own = page;
    const opened = await openPage(site.browser, howl, { cookie });
    page = opened.page;
    try {
      const why = 'Player authentication is off for this game, so no player can register.';
      expect(await check('players-empty', visit('/dashboard/players', why))).toEqual([]);
      expect(await page.textContent('main')).toContain('No players yet!');
      await page.getByRole('link', { name: 'Player authentication settings' }).click();
      await page.waitForURL(`${howl.url}/playerauth#authSettings`);
      const toggle = page.getByLabel('Player authentication is disabled');
      // The page opens scrolled to the settings panel, and stays there while the sections above it render.
      const inView = async () => {
        const y = (await toggle.boundingBox())?.y ?? -1;
        return y >= 0 && y < 900;
      };
      await expect.poll(inView, { timeout: 5000 }).toBe(true);
      await page.waitForTimeout(1000);
      expect(await inView()).toBe(true);
    } finally {
      await opened.context.close();
      page = own;
    }
  });
});
