import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, expectNoAxeViolations } from './fixtures';

// A language in every public address (docs/decisions/041-language-addresses.md): English at the
// unprefixed address, the others under their code, whatever the visitor's cookie says; the
// language menu goes to the same page in the chosen language; `/` alone follows the choice.
// Every test starts without a cookie, as a search engine or a shared link does.

const LANGS = ['en', 'ml', 'fr', 'de', 'es'] as const;
type Lang = (typeof LANGS)[number];
const locale = (lang: Lang, ns: string) =>
  JSON.parse(
    fs.readFileSync(
      path.join(path.dirname(new URL(import.meta.url).pathname), `../../src/i18n/locales/${lang}/${ns}.json`),
      'utf8',
    ),
  ) as Record<string, unknown>;
const at = (lang: Lang, page: string) =>
  lang === 'en' ? page : page === '/' ? `/${lang}` : `/${lang}${page}`;

async function h1(page: Page) {
  return (await page.getByRole('heading', { level: 1 }).first().textContent())?.trim();
}

test('each language has its pages at its own addresses, with no cookie: home, pricing, blog, a post, careers, an opening', async ({
  page,
}) => {
  // an opening's and a post's addresses, as the English pages link them
  await page.goto('/careers');
  const jobPath = (await page.locator('main a[href^="/careers/"]').first().getAttribute('href'))!;
  await page.goto('/blog');
  const postPath = (await page
    .locator('main a[href^="/blog/"]:not([href*="/tag/"]):not([href$=".xml"])')
    .first()
    .getAttribute('href'))!;
  for (const lang of LANGS) {
    for (const address of ['/', '/pricing', '/blog', postPath, '/careers', jobPath]) {
      const response = await page.goto(at(lang, address));
      expect(response?.status(), at(lang, address)).toBe(200);
      expect(response?.headers()['content-language']).toBe(lang);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
    }
    await page.goto(at(lang, '/pricing'));
    expect(await h1(page)).toBe(locale(lang, 'pricing').title);
    // every link of the page stays in its language
    const navPricing = page
      .getByRole('banner')
      .getByRole('link', {
        name: (locale(lang, 'common').nav as Record<string, string>).pricing,
        exact: true,
      });
    await expect(navPricing).toHaveAttribute('href', at(lang, '/pricing'));
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      'href',
      new RegExp(`${at(lang, '/pricing').replace(/\//g, '\\/')}$`),
    );
    await expect(page.locator('link[rel="alternate"][hreflang]')).toHaveCount(6);
  }
});

test('the language menu goes to the same page in the chosen language, whose links stay in it; / then follows the choice', async ({
  page,
}) => {
  await page.goto('/pricing?period=yearly');
  await page.locator('#language-desktop').selectOption('de');
  await expect(page).toHaveURL(/\/de\/pricing\?period=yearly$/);
  await expect(page.locator('#root')).toHaveAttribute('data-hydrated', 'true');
  expect(await h1(page)).toBe('Einfache, transparente Preise');
  await page.getByRole('banner').getByRole('button', { name: 'Unternehmen' }).click();
  await page
    .getByRole('banner')
    .getByRole('link', { name: /Karriere/ })
    .click();
  await expect(page).toHaveURL(/\/de\/careers$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expectNoAxeViolations(page, { label: '/de/careers' });
  // the choice is remembered: the home sends the visitor to the German one
  await page.goto('/');
  await expect(page).toHaveURL(/\/de$/);
  // and English is chosen back the same way
  await page.locator('#language-desktop').selectOption('en');
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test("a shared link opens in the sender's language; a browser that asks for Spanish is sent from / to the Spanish home", async ({
  browser,
  baseURL,
}) => {
  const friend = await browser.newContext({ baseURL });
  const page = await friend.newPage();
  await page.goto('/ml/pricing');
  expect(await h1(page)).toBe(locale('ml', 'pricing').title);
  await friend.close();
  const spanish = await browser.newContext({ baseURL, locale: 'es-ES' });
  const es = await spanish.newPage();
  await es.goto('/');
  await expect(es).toHaveURL(/\/es$/);
  await expect(es.locator('html')).toHaveAttribute('lang', 'es');
  // a language address is never sent anywhere else
  await es.goto('/pricing');
  await expect(es.locator('html')).toHaveAttribute('lang', 'en');
  await spanish.close();
});

test('/en/... is the unprefixed address; an unknown language is not found', async ({ page }) => {
  const moved = await page.goto('/en/about');
  expect(new URL(page.url()).pathname).toBe('/about');
  expect(moved?.status()).toBe(200);
  const unknown = await page.goto('/xx/about');
  expect(unknown?.status()).toBe(404);
});
