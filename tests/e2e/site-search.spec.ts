import type { Page } from '@playwright/test';
import { test, expect, expectNoAxeViolations } from './fixtures';

// The site's one search (docs/decisions/040-site-search-screens.md): the header's dialog (/ and
// Ctrl+K), the /search page with and without JavaScript, another language, and the copy kept on
// the device when the server cannot be reached. The seeded site's pages, posts and openings.

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Search' });
const box = (page: Page) => dialog(page).getByRole('combobox', { name: 'Search the site' });

for (const [label, width] of [
  ['desktop', 1280],
  ['phone', 390],
] as const) {
  test.describe(`at ${label} width`, () => {
    test.use({ viewport: { width, height: 844 } });

    test('the header search finds pages and openings as one types, and opens one with the keyboard', async ({
      page,
    }) => {
      await page.goto('/pricing');
      const opener = page.getByRole('banner').getByRole('link', { name: 'Search' });
      await opener.click();
      await expect(box(page)).toBeFocused();
      await expect(dialog(page).getByText('Type to search every page')).toBeVisible();
      await box(page).pressSequentially('jats');
      const list = dialog(page).getByRole('listbox', { name: 'Search results' });
      await expect(list.getByRole('group', { name: /Pages/ })).toBeVisible();
      await expect(dialog(page).getByRole('status')).toHaveText(/^\d+ results?$/);
      // the searched word is marked in the snippets
      await expect(list.locator('mark').first()).toHaveText(/jats/i);
      await expectNoAxeViolations(page, { label: `search dialog (${label})` });

      // arrows move through the results (the text box keeps focus), Enter opens the highlighted one
      await box(page).press('ArrowDown');
      const first = list.getByRole('option').first();
      await expect(first).toHaveAttribute('aria-selected', 'true');
      await expect(box(page)).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!);
      await box(page).press('ArrowUp');
      await expect(list.getByRole('option').last()).toHaveAttribute('aria-selected', 'true');
      await box(page).press('ArrowDown');
      const title = await first.locator('span').first().textContent();
      await box(page).press('Enter');
      await expect(dialog(page)).toBeHidden();
      await expect(page).toHaveTitle(new RegExp(title!.split(' ')[0]!));

      // Escape closes it and gives focus back to the header's button
      await opener.click();
      await expect(box(page)).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(dialog(page)).toBeHidden();
      await expect(opener).toBeFocused();
    });

    test('the /search page fits the screen, with its results as links', async ({ page }) => {
      await page.goto('/search?q=peer%20review');
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { name: /Pages/ })).toBeVisible();
      await expect(main.getByRole('link', { name: /Editorial Operations Specialist/ })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectNoAxeViolations(page, { label: `/search (${label})` });
    });
  });
}

test('/ and Ctrl+K open the search from the page, but / typed in a field stays in the field', async ({
  page,
}) => {
  await page.goto('/contact');
  await page.keyboard.press('/');
  await expect(box(page)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toBeHidden();
  await page.keyboard.press('Control+k');
  await expect(box(page)).toBeFocused();
  await dialog(page).getByRole('button', { name: 'Close search' }).click();
  await expect(dialog(page)).toBeHidden();
  const name = page.getByLabel(/name/i).first();
  await name.fill('a/b');
  await expect(name).toHaveValue('a/b');
  await expect(dialog(page)).toBeHidden();
});

test('nothing found offers the blog and the careers page, and Enter shows every result on /search', async ({
  page,
}) => {
  await page.goto('/');
  await page.keyboard.press('/');
  await box(page).pressSequentially('zzqxv');
  await expect(dialog(page).getByText('No results for “zzqxv”.')).toBeVisible();
  await expect(dialog(page).getByRole('link', { name: 'The blog' })).toBeVisible();
  await expect(dialog(page).getByRole('link', { name: 'Job openings' })).toBeVisible();
  await box(page).fill('peer review');
  await expect(dialog(page).getByRole('option').first()).toBeVisible();
  await box(page).press('Enter');
  await expect(page).toHaveURL(/\/search\?q=peer\+review$/);
  await expect(page.getByRole('searchbox', { name: 'Search the site' })).toHaveValue('peer review');
  await expect(page.getByRole('main').getByRole('link', { name: 'Manuscript Automation' })).toBeVisible();
});

test('a German visitor searches in German, with the page in German', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'lang', value: 'de', url: baseURL! }]);
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'Suche' }).click();
  const searchBox = page.getByRole('combobox', { name: 'Website durchsuchen' });
  await searchBox.pressSequentially('preise');
  const list = page.getByRole('listbox', { name: 'Suchergebnisse' });
  await expect(list.getByRole('group', { name: /Seiten/ })).toBeVisible();
  await expect(list.getByRole('option', { name: /^Preise/ })).toBeVisible();
  await expect(page.getByRole('dialog').getByRole('status')).toHaveText(/Ergebnis/);
  await expectNoAxeViolations(page, { label: 'search dialog (de)' });
});

test("English results say when other languages have some, and lead to that language's search page", async ({
  page,
}) => {
  await page.goto('/search?q=peer%20review');
  const elsewhere = page.getByText('Also found in:');
  await expect(elsewhere).toBeVisible();
  await elsewhere.getByRole('link', { name: /Deutsch/ }).click();
  await expect(page).toHaveURL(/\/de\/search\?q=peer\+review$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Suche' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('heading', { name: /Seiten/ })).toBeVisible();
  await expectNoAxeViolations(page, { label: '/de/search' });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('/search is a page of its own: the form sends the words and the server answers with results', async ({
    page,
  }) => {
    const response = await page.goto('/search');
    expect(response?.headers()['x-robots-tag']).toBe('noindex');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    await page.getByRole('searchbox', { name: 'Search the site' }).fill('editorial operations');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/search\?q=editorial\+operations/);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: /Job openings/ })).toBeVisible();
    const opening = main.getByRole('link', { name: /Editorial Operations Specialist/ });
    await expect(opening).toHaveAttribute('href', /^\/careers\/\d+-/);
    await expect(main.getByText(/\d+ results?/)).toBeVisible();
    // (axe needs JavaScript: the same page is checked with it above)
  });
});

test.describe('offline', () => {
  test.use({
    serviceWorkers: 'allow',
    allowedConsoleErrors: [/Failed to load resource: net::ERR_INTERNET_DISCONNECTED/],
  });

  test('searches the pages and openings kept on the device, and says the results are the saved copy', async ({
    page,
    context,
  }) => {
    // the offline prefetch is another test's subject: here the device keeps what was visited
    await context.addInitScript(() => {
      try {
        localStorage.setItem('manna-offline-prefetch-at', new Date().toISOString());
      } catch {
        // about:blank has no storage
      }
    });
    await page.goto('/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
    await page.goto('/careers');
    const firstOpening = (await page
      .getByRole('main')
      .getByRole('heading', { level: 2 })
      .first()
      .textContent())!;
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const names = await caches.keys();
          return names.some((n) => n.startsWith('workbox-precache'));
        }),
      )
      .toBe(true);

    await context.setOffline(true);
    await page.keyboard.press('/');
    await box(page).pressSequentially('pricing');
    await expect(
      dialog(page).getByText("You're offline: these results come from the copy saved on this device."),
    ).toBeVisible();
    await expect(dialog(page).getByRole('option', { name: /^Pricing/ })).toBeVisible();
    await box(page).fill(firstOpening.split(' ')[0]!);
    await expect(dialog(page).getByRole('group', { name: /Job openings/ })).toBeVisible();
    await expect(dialog(page).getByRole('option', { name: new RegExp(firstOpening) })).toBeVisible();
    await expectNoAxeViolations(page, { label: 'search dialog offline' });
    await context.setOffline(false);
  });
});
