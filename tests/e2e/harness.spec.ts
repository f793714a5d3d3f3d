// Checks the e2e harness itself (tests/e2e/fixtures.ts): console errors and uncaught errors fail a
// test, warnings do not, and a test can allow an error it expects. Runs on about:blank, so it does
// not depend on the app (but for the CSP check, which needs the site's own policy). A test that
// must fail checks the verdict the fixture would fail it with (its message names the error meant),
// then clears what it checked: a failure of any other kind still fails it (no test.fail(), which
// passes on any failure).
import { consoleVerdict, expect, test } from './fixtures';

test.describe('e2e harness', () => {
  test('console.warn does not fail a test', async ({ page }) => {
    await page.evaluate(() => console.warn('a warning is fine'));
  });

  test('console.error fails a test', async ({ page, consoleProblems }) => {
    await page.evaluate(() => console.error('boom'));
    await expect
      .poll(() => consoleVerdict(consoleProblems))
      .toMatch(/^The page logged 1 console error\(s\)[^]*\[console\.error\] boom/);
    consoleProblems.length = 0;
  });

  test('an uncaught error fails a test', async ({ page, consoleProblems }) => {
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('uncaught boom');
      });
    });
    await expect
      .poll(() => consoleVerdict(consoleProblems))
      .toMatch(/^The page logged 1 console error\(s\)[^]*\[pageerror\] Error: uncaught boom/);
    consoleProblems.length = 0;
  });

  test('a Content Security Policy violation fails a test', async ({ page, consoleProblems }) => {
    await page.goto('/ComingSoon');
    // an inline script is not among the build's hashes: the site's CSP refuses it
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__ran = true';
      document.body.appendChild(s);
    });
    await expect.poll(() => consoleVerdict(consoleProblems)).toMatch(/Content Security Policy/);
    expect(await page.evaluate(() => (window as { __ran?: boolean }).__ran)).toBeUndefined();
    consoleProblems.length = 0;
  });

  test.describe('with an allowed error', () => {
    test.use({ allowedConsoleErrors: [/Error fetching pricing/] });
    test('an allowed console.error does not fail a test', async ({ page }) => {
      await page.evaluate(() => console.error('Error fetching pricing', new Error('offline')));
    });
  });
});
