/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The checks below run inside the page.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SKIP, openSite, screenshots, type Site } from './support/browser.js';
import { developer, http, startHowl, type Howl } from './support/howl.js';

const EMAIL = 'indie.developer.layout@example.com';
const WIDTHS = [1440, 375];

/**
 * What does not fit, as a person would see it: the page scrolling sideways, an element sticking out of
 * the page, a code block whose lines hide behind a horizontal scroll, inline code or an address (one
 * word, no spaces) split over two lines although it fits on one.
 */
function misfits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const name = (el: Element) => `<${el.tagName.toLowerCase()}> "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width)
      found.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
    for (const el of document.querySelectorAll('main *, header *, footer *')) {
      const box = el.getBoundingClientRect();
      if (box.width > 0 && (box.right > width + 1 || box.left < -1)) found.push(`${name(el)} sticks out of the page`);
    }
    for (const el of document.querySelectorAll('pre, figure div')) {
      if (el.scrollWidth > el.clientWidth + 1)
        found.push(`${name(el)} hides ${el.scrollWidth - el.clientWidth} px of its lines`);
    }
    for (const el of document.querySelectorAll<HTMLElement>(':not(pre) > code, [data-email]')) {
      const text = el.textContent ?? '';
      if (/\s/.test(text) || el.getClientRects().length < 2) continue;
      const probe = el.cloneNode(true) as HTMLElement;
      probe.style.whiteSpace = 'nowrap';
      probe.style.position = 'absolute';
      document.body.append(probe);
      const alone = probe.getBoundingClientRect().width;
      probe.remove();
      if (alone <= (el.parentElement?.clientWidth ?? width)) found.push(`${name(el)} breaks mid-word`);
    }
    return found;
  });
}

describe.skipIf(BROWSER_SKIP)('the site layout in Chromium at 1440 and 375 px', { timeout: 180_000 }, () => {
  let howl: Howl;
  let site: Site;
  let page: Page;

  beforeAll(async () => {
    howl = await startHowl();
    // Signed in, the guides show every code sample with the developer's own game.
    const cookie = await developer(howl, EMAIL);
    await http(howl, 'POST', '/api/games', { cookie, body: { name: 'Layout Game' } });
    // Chromium names this zone by its old name, Asia/Calcutta.
    site = await openSite(howl, { cookie, timezoneId: 'Asia/Kolkata' });
    ({ page } = site);
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    await howl?.close();
  });

  it.each(['download', 'leaderboard', 'playerauth', 'playerdata'])(
    'fits /%s: code blocks wrap inside the column, inline code keeps its words whole',
    async (path) => {
      await page.goto(`${howl.url}/${path}`);
      await page.locator('figure pre').first().waitFor();
      await page.waitForLoadState('networkidle');
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.waitForTimeout(150);
        expect(await misfits(page), `/${path} at ${width} px`).toEqual([]);
      }
      await screenshots(page, `layout-${path}`);
    },
  );

  it('signed in: the mobile menu lines up, an address stays whole, the whole zone name shows', async () => {
    await page.setViewportSize({ width: 375, height: 900 });
    await page.goto(`${howl.url}/contact`);
    await page.getByText(EMAIL).evaluate((el) => el.setAttribute('data-email', ''));
    expect(await misfits(page)).toEqual([]);

    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await menu.getByRole('button', { name: 'Sign out' }).waitFor();
    // Where each item's label starts: the links', the button's and the game switcher's. The guides
    // under Features (Leaderboards, Player accounts, Player Data) are indented one step, together.
    const guides = ['Leaderboards', 'Player accounts', 'Player Data'];
    const all = await menu.evaluate((nav) =>
      [...nav.children].map((item) => {
        const select = item.querySelector('select');
        if (select) return { text: '', left: Math.round(select.getBoundingClientRect().left) };
        const range = document.createRange();
        range.selectNodeContents(item);
        return { text: item.textContent?.trim() ?? '', left: Math.round(range.getClientRects()[0]!.left) };
      }),
    );
    const starts = all.filter((i) => !guides.includes(i.text)).map((i) => i.left);
    const indented = all.filter((i) => guides.includes(i.text)).map((i) => i.left);
    expect(starts.length).toBeGreaterThanOrEqual(6);
    expect(new Set(starts).size, `label starts ${starts.join(', ')}`).toBe(1);
    expect(indented).toHaveLength(3);
    expect(new Set(indented).size, `guide starts ${indented.join(', ')}`).toBe(1);
    expect(indented[0]!).toBeGreaterThan(starts[0]!);
    await screenshots(page, 'layout-mobile-menu');
    await page.getByRole('button', { name: 'Close menu' }).click();

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${howl.url}/features`);
      await page.getByRole('button', { name: 'Add leaderboard' }).click();
      const row = page.getByRole('form', { name: 'New leaderboard' });
      await row.getByLabel('Reset period').selectOption('daily');
      const zone = row.getByLabel('Timezone');
      expect(await zone.inputValue()).toBe('Asia/Kolkata');
      expect(await zone.locator('option[value="Asia/Calcutta"]').count()).toBe(0);
      await zone.selectOption('America/Argentina/Buenos_Aires');
      // The chosen name's width in the select's font, against the room left of the arrow.
      const { text, room } = await zone.evaluate((select: HTMLSelectElement) => {
        const style = getComputedStyle(select);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
        return { text: ctx.measureText(select.value).width, room: select.clientWidth - padding - 16 };
      });
      expect(text, `at ${width} px`).toBeLessThanOrEqual(room);
      expect(await misfits(page), `/features at ${width} px`).toEqual([]);
    }
    await screenshots(page, 'layout-timezone');
  });
});
