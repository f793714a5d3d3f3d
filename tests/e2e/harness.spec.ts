// Checks the e2e harness itself (tests/e2e/fixtures.ts): console errors and uncaught errors fail a
// test, warnings do not, and a test can allow an error it expects. Runs on about:blank, so it does
// not depend on the app (but for the CSP check, which needs the site's own policy).
import { test } from './fixtures';

test.describe('e2e harness', () => {
  test('console.warn does not fail a test', async ({ page }) => {
    await page.evaluate(() => console.warn('a warning is fine'));
  });

  test('console.error fails a test', async ({ page }) => {
    test.fail(true, 'the console-error fixture must fail this test');
    await page.evaluate(() => console.error('boom'));
  });

  test('an uncaught error fails a test', async ({ page }) => {
    test.fail(true, 'the console-error fixture must fail this test');
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('uncaught boom');
      });
    });
    await page.waitForTimeout(100);
  });

  test('a Content Security Policy violation fails a test', async ({ page }) => {
    test.fail(true, 'the console-error fixture must fail this test');
    await page.goto('/ComingSoon');
    // an inline script is not among the build's hashes: the site's CSP refuses it
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__ran = true';
      document.body.appendChild(s);
    });
    await page.waitForTimeout(200);
  });

  test.describe('with an allowed error', () => {
    test.use({ allowedConsoleErrors: [/Error fetching pricing/] });
    test('an allowed console.error does not fail a test', async ({ page }) => {
      await page.evaluate(() => console.error('Error fetching pricing', new Error('offline')));
    });
  });
});
