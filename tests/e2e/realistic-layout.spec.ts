import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from './fixtures';
import { layoutShifts, watchLayoutShifts } from './layout-shifts';
import { freePort, OwnServer } from './own-server';
// the Lighthouse bench's content (bench/lib/realistic.mjs), put in through the API the same way
import { REALISTIC_OWNER, seedRealistic } from '../../bench/lib/realistic.mjs';

// The public lists are final at first paint (docs/decisions/029-final-at-first-paint.md) with a year's content, not only with the
// seed's: 20 openings of mixed length with rich text on /careers, 10 posts of 1 to 12 paragraphs
// with their own covers on /blog and their tag's page, and a post with three images in its text.
// Chromium's layout-shift entries from the first paint to well after hydration must be none, on a
// phone and on a desktop. Its own server: 20 more openings would move the seeded ones other specs
// look for off the shared server's first page.

const DIST = path.resolve(process.env.MANNA_DIST ?? 'dist');
let server: OwnServer;
let dataDir: string;
let pages: string[];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-realistic-'));
  server = new OwnServer(await freePort(), DIST, dataDir, {
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: REALISTIC_OWNER.email,
    ADMIN_PASSWORD: REALISTIC_OWNER.password,
  });
  await server.start();
  const seeded = await seedRealistic({ origin: server.origin, dataDir });
  pages = ['/careers', '/blog', seeded.tagPage, seeded.postWithImages];
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

for (const width of [390, 1280]) {
  test(`no layout shift at ${width} px on /careers, /blog, a tag page and a post with images, with a year's content`, async ({
    browser,
  }) => {
    for (const pagePath of pages) {
      const context = await browser.newContext({ viewport: { width, height: 844 } });
      const page = await context.newPage();
      await watchLayoutShifts(page);
      await page.goto(`${server.origin}${pagePath}`, { waitUntil: 'networkidle' });
      await expect(page.locator('#root')).toHaveAttribute('data-hydrated', 'true');
      // the list is the server's: as many cards as the page holds, nothing left to load
      if (pagePath === '/careers') await expect(page.getByRole('article')).toHaveCount(20);
      if (pagePath === '/blog')
        await expect(page.getByRole('list', { name: 'Blog posts' }).locator(':scope > li')).toHaveCount(10);
      await page.waitForTimeout(500);
      expect(await layoutShifts(page), `${pagePath} at ${width} px`).toEqual([]);
      await context.close();
    }
  });
}
