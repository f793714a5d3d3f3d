import { chromium } from 'playwright';
import AxeBuilder from '@axe-core/playwright';

const BASE = 'http://127.0.0.1:4455';
(async () => {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  // a few visitors: different agents, campaigns, pages
  const agents = [
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
  ];
  const entries = ['/careers?utm_source=newsletter&utm_medium=email&utm_campaign=autumn-hiring', '/pricing', '/blog'];
  for (let i = 0; i < agents.length; i++) {
    const ctx = await browser.newContext({ userAgent: agents[i] });
    const page = await ctx.newPage();
    await page.goto(BASE + entries[i], { referer: i === 2 ? 'https://www.google.com/' : undefined });
    await page.locator('#root[data-hydrated="true"]').waitFor();
    await page.waitForTimeout(1500);
    await page.locator('a[href="/about"] >> visible=true').first().click();
    await page.waitForTimeout(1500);
    await ctx.close();
  }
  await new Promise((r) => setTimeout(r, 1500));
  for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
    const ctx = await browser.newContext({ viewport });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(BASE + '/admin/login');
    await page.locator('#root[data-hydrated="true"]').waitFor().catch(() => {});
    await page.getByLabel('Email').fill('owner@e2e.example');
    await page.getByLabel('Password').fill('e2e owner passphrase for tests');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('link', { name: 'Insights' }).waitFor();
    await page.goto(BASE + '/admin/insights');
    await page.getByRole('heading', { name: 'Top pages' }).waitFor();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `/tmp/shots/insights-${name}.png`, fullPage: true });
    const axe = await new AxeBuilder({ page }).analyze();
    console.log(name, 'axe', axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`));
    await page.getByRole('button', { name: 'Show as table' }).click();
    await page.getByRole('button', { name: /^newsletter|autumn-hiring/ }).first().click().catch(() => {});
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `/tmp/shots/insights-${name}-filtered.png`, fullPage: true });
    const axe2 = await new AxeBuilder({ page }).analyze();
    console.log(name, 'axe2', axe2.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`));
    console.log(name, 'errors', errors);
    await ctx.close();
  }
  await browser.close();
})();
