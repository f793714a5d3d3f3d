import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { test, expect } from './fixtures';

// The JavaScript budget: each public page's JavaScript before interaction (gzip level 9 of the
// built files, as bench/bundle-size.mjs counts it) may not grow by more than GROWTH_BYTES over the
// committed baseline in js-budget.json. A change that means to grow a page updates the baseline
// with its reason: `UPDATE_JS_BUDGET="why" npx playwright test js-budget` (after a build).

const BASELINE_FILE = path.join(path.dirname(new URL(import.meta.url).pathname), 'js-budget.json');
const GROWTH_BYTES = 2000;
const CLIENT = path.join(path.resolve(process.env.MANNA_DIST ?? 'dist'), 'client');
const PAGES = [
  '/',
  '/manuscript-automation',
  '/pricing',
  '/about',
  '/careers',
  '/contact',
  '/blog',
  '/privacy-policy',
];

interface Baseline {
  reason: string;
  pages: Record<string, number>;
}

const measured: Record<string, number> = {};

test.describe('JavaScript before interaction', () => {
  // updating measures every page in one worker, which then writes them all
  test.describe.configure({ mode: process.env.UPDATE_JS_BUDGET ? 'serial' : 'parallel' });

  for (const pagePath of PAGES) {
    test(`${pagePath} stays within ${GROWTH_BYTES / 1000} kB gzip of its baseline`, async ({
      page,
      baseURL,
    }) => {
      const scripts = new Set<string>();
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (request.resourceType() === 'script' && url.origin === new URL(baseURL!).origin)
          scripts.add(url.pathname);
      });
      await page.goto(pagePath, { waitUntil: 'networkidle' });
      await expect(page.locator('#root')).toHaveAttribute('data-hydrated', 'true');
      await page.waitForTimeout(1000);
      let bytes = 0;
      for (const script of scripts) {
        bytes += zlib.gzipSync(fs.readFileSync(path.join(CLIENT, script)), { level: 9 }).length;
      }
      measured[pagePath] = bytes;
      const baseline = (JSON.parse(fs.readFileSync(BASELINE_FILE, 'utf8')) as Baseline).pages[pagePath];
      if (process.env.UPDATE_JS_BUDGET) return;
      expect(baseline, `no baseline for ${pagePath}: run with UPDATE_JS_BUDGET="why"`).toBeDefined();
      expect(
        bytes,
        `${pagePath}: ${bytes} bytes of JavaScript (gzip) before interaction, baseline ${baseline}: ` +
          `more than ${GROWTH_BYTES} bytes over it. Make it smaller, or update the baseline with the reason ` +
          '(UPDATE_JS_BUDGET="why" npx playwright test js-budget).',
      ).toBeLessThanOrEqual(baseline + GROWTH_BYTES);
    });
  }

  test.afterAll(() => {
    const reason = process.env.UPDATE_JS_BUDGET;
    if (!reason || Object.keys(measured).length !== PAGES.length) return;
    const next: Baseline = { reason, pages: measured };
    fs.writeFileSync(BASELINE_FILE, `${JSON.stringify(next, null, 2)}\n`);
  });
});
