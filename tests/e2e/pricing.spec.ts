import type { Page } from '@playwright/test';
import { test, expect, expectNoAxeViolations } from './fixtures';
import { copyKept } from './offline-helpers';

// The pricing page against the real server and its seeded plans: India (country 101) has INR
// prices for Starter, Professional and Enterprise (Enterprise has no quarterly price). The e2e
// browser talks to the server from 127.0.0.1, a private address, so /api/geo answers India.

const card = (page: Page, plan: string) => page.getByRole('article', { name: plan });

/**
 * /pricing reached inside the app (from /about, by the header's link): the page asks for the
 * visitor's country and plans itself. Opened by its address, it comes with them from the server.
 */
async function toPricing(page: Page) {
  await page.goto('/about');
  await page.getByRole('banner').getByRole('link', { name: 'Pricing', exact: true }).click();
  await expect(page).toHaveURL(/\/pricing$/);
}

/** Console warnings of the page, to check the spec's 'Error fetching pricing' line. */
function warningsOf(page: Page): string[] {
  const warnings: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'warning') warnings.push(msg.text());
  });
  return warnings;
}

test.describe('pricing page', () => {
  test("shows India's plans in rupees for each period, with the journals labels and 'Most Popular'", async ({
    page,
  }) => {
    const warnings = warningsOf(page);
    const response = await page.goto('/pricing');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Simple, Transparent Pricing' })).toBeVisible();

    const periods = page.getByRole('group', { name: 'Billing period' });
    await expect(periods.getByRole('radio', { name: 'Quarterly' })).toBeChecked();
    await expect(card(page, 'Starter')).toContainText('₹12,000');
    await expect(card(page, 'Professional')).toContainText('₹30,000');
    await expect(card(page, 'Enterprise').getByText('-', { exact: true })).toBeVisible();
    await expect(card(page, 'Enterprise')).not.toContainText('₹');

    await periods.getByRole('radio', { name: 'Half Yearly' }).check();
    await expect(card(page, 'Starter')).toContainText('₹22,000');
    await expect(card(page, 'Professional')).toContainText('₹55,000');
    await expect(card(page, 'Enterprise')).toContainText('₹1,20,000');

    await periods.getByRole('radio', { name: 'Annual' }).check();
    await expect(card(page, 'Starter')).toContainText('₹40,000');
    await expect(card(page, 'Professional')).toContainText('₹1,00,000');
    await expect(card(page, 'Enterprise')).toContainText('₹2,20,000');

    await expect(card(page, 'Professional').getByText('Most Popular')).toBeVisible();
    await expect(page.getByText('Most Popular')).toHaveCount(1);

    await expect(card(page, 'Starter').getByText('2 journals max', { exact: true })).toBeVisible();
    await expect(card(page, 'Professional').getByText('10 journals max', { exact: true })).toBeVisible();
    await expect(card(page, 'Enterprise').getByText('Unlimited journals', { exact: true })).toBeVisible();

    // description and the comma-separated features as a list
    await expect(card(page, 'Starter')).toContainText(
      'For a single journal moving its editorial workflow online.',
    );
    await expect(card(page, 'Starter').getByRole('listitem')).toHaveText([
      'Guided author submissions',
      'Automatic format checks',
      'Peer review automation',
      'Built-in plagiarism check',
      'Email support',
    ]);

    // the call to action goes to the Register page (a full page load)
    const cta = card(page, 'Professional').getByRole('link', { name: 'Get Started with Professional' });
    await expect(cta).toHaveAttribute('href', /register/);

    await expectNoAxeViolations(page);
    expect(warnings.filter((w) => w.includes('Error fetching pricing'))).toEqual([]);
  });

  test('the period switch is a radio group the keyboard can use', async ({ page }) => {
    await page.goto('/pricing');
    await expect(card(page, 'Starter')).toContainText('₹12,000');
    const quarterly = page.getByRole('radio', { name: 'Quarterly' });
    await quarterly.focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('radio', { name: 'Half Yearly' })).toBeChecked();
    await expect(page.getByRole('radio', { name: 'Half Yearly' })).toBeFocused();
    await expect(card(page, 'Starter')).toContainText('₹22,000');
    await page.keyboard.press('ArrowRight');
    await expect(card(page, 'Starter')).toContainText('₹40,000');
  });

  test("the server HTML has the title, the period switch and the plans of the visitor's country; the page asks for nothing more", async ({
    page,
    request,
  }) => {
    const html = await (await request.get('/pricing')).text();
    expect(html).toContain('Simple, Transparent Pricing');
    expect(html.match(/type="radio"/g)).toHaveLength(3);
    expect(html).not.toContain('aria-busy="true"');
    expect(html).toContain('Professional');
    expect(html).toContain('₹12,000');
    const asked: string[] = [];
    page.on(
      'request',
      (r) => /\/api\/(geo|bind-country-by-code|BindPlanDetails)/.test(r.url()) && asked.push(r.url()),
    );
    await page.goto('/pricing');
    await expect(card(page, 'Starter')).toContainText('₹12,000');
    await page.waitForTimeout(500);
    expect(asked).toEqual([]);
  });

  test('reached inside the app, the plans replace the skeleton cards without moving the page (CLS under 0.05)', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      const w = window as unknown as { __cls: number };
      w.__cls = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[]) {
          if (!entry.hadRecentInput) w.__cls += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // hold the plans back a little, so the skeleton is on screen first
    await page.route('**/api/BindPlanDetails*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await toPricing(page);
    const firstCard = page.locator('main ul > li').first();
    await expect(page.locator('[aria-busy="true"]')).toBeVisible();
    const before = await firstCard.boundingBox();
    await expect(card(page, 'Starter')).toContainText('₹12,000');
    const after = await firstCard.boundingBox();
    expect(after).toEqual(before);
    const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
    expect(cls).toBeLessThan(0.05);
  });

  test("asks for the plans of the visitor's country, and a country without prices gets India's", async ({
    page,
  }) => {
    await page.route('**/api/geo', (route) =>
      route.fulfill({ json: { country_name: 'United States', country_code: 'US' } }),
    );
    const countryCall = page.waitForRequest(/\/api\/bind-country-by-code\?/);
    const plansCall = page.waitForRequest(/\/api\/BindPlanDetails\?/);
    await toPricing(page);
    expect(new URL((await countryCall).url()).searchParams.get('countrycode')).toBe('US');
    expect(new URL((await plansCall).url()).searchParams.get('countryid')).toBe('233');
    await expect(card(page, 'Starter')).toContainText('₹12,000');
  });
});

test.describe('pricing page when calls fail', () => {
  // Chromium reports each failed request as "Failed to load resource"; these tests fail them on purpose.
  test.use({ allowedConsoleErrors: [/Failed to load resource/] });

  test("falls back to country 101 when geolocation fails, and still shows India's plans", async ({
    page,
  }) => {
    const warnings = warningsOf(page);
    let countryLookups = 0;
    page.on('request', (req) => {
      if (req.url().includes('/api/bind-country-by-code')) countryLookups++;
    });
    await page.route('**/api/geo', (route) => route.abort('internetdisconnected'));
    const plansCall = page.waitForRequest(/\/api\/BindPlanDetails\?/);
    await toPricing(page);
    const url = new URL((await plansCall).url());
    expect(url.searchParams.get('countryid')).toBe('101');
    expect(url.searchParams.get('subscriptiontypeid')).toBe('0');
    await expect(card(page, 'Starter')).toContainText('₹12,000');
    expect(countryLookups).toBe(0);
    expect(warnings.filter((w) => w.includes('Error fetching pricing'))).toEqual([]);
  });

  test('shows a quiet message with Retry when the plans call fails and nothing was kept', async ({
    page,
  }) => {
    const warnings = warningsOf(page);
    await page.route('**/api/BindPlanDetails*', (route) =>
      route.fulfill({ status: 503, json: { message: 'The database is not answering' } }),
    );
    await toPricing(page);
    await expect(page.getByText("We couldn't load the plans right now.")).toBeVisible();
    await expect(page.getByRole('article')).toHaveCount(0);
    await expect.poll(() => warnings.some((w) => w.startsWith('Error fetching pricing'))).toBe(true);
    await expectNoAxeViolations(page);

    await page.unroute('**/api/BindPlanDetails*');
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(card(page, 'Professional')).toContainText('₹30,000');
    await expect(page.getByText("We couldn't load the plans right now.")).toHaveCount(0);
  });

  test('shows the plans kept from the last visit, with their date, when the plans call fails', async ({
    page,
  }) => {
    await page.goto('/pricing');
    await expect(card(page, 'Starter')).toContainText('₹12,000');
    await expect.poll(() => copyKept(page, 'pricing', 'plans')).toBe(true);

    const warnings = warningsOf(page);
    await page.route('**/api/BindPlanDetails*', (route) => route.abort('internetdisconnected'));
    await toPricing(page);
    await expect(page.getByText(/^Showing saved copy from .*\d/)).toBeVisible();
    await expect(card(page, 'Starter')).toContainText('₹12,000');
    await expect(card(page, 'Professional').getByText('Most Popular')).toBeVisible();
    await expect(page.getByText("We couldn't load the plans right now.")).toHaveCount(0);
    expect(warnings.some((w) => w.startsWith('Error fetching pricing'))).toBe(true);
    await expectNoAxeViolations(page);

    // Retry once the network is back: fresh plans, no note
    await page.unroute('**/api/BindPlanDetails*');
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(card(page, 'Starter')).toContainText('₹12,000');
    await expect(page.getByText(/Showing saved copy from/)).toHaveCount(0);
  });
});

test.describe('pricing page on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('keeps the three periods on one line and stacks the cards', async ({ page }) => {
    await page.goto('/pricing');
    await expect(card(page, 'Enterprise')).toBeVisible();
    const tops = await Promise.all(
      ['Quarterly', 'Half Yearly', 'Annual'].map(
        async (name) => (await page.getByRole('radio', { name }).boundingBox())!.y,
      ),
    );
    expect(new Set(tops).size).toBe(1);
    const starter = (await card(page, 'Starter').boundingBox())!;
    const professional = (await card(page, 'Professional').boundingBox())!;
    expect(professional.y).toBeGreaterThan(starter.y + starter.height - 1);
    await expectNoAxeViolations(page);
  });
});

test.describe('pricing page in Malayalam', () => {
  test('is prerendered and shown at its Malayalam address', async ({ page }) => {
    await page.goto('/ml/pricing');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('ലളിതവും സുതാര്യവുമായ വിലനിർണ്ണയം');
    await expect(card(page, 'Enterprise').getByText('പരിധിയില്ലാത്ത ജേണലുകൾ')).toBeVisible();
    await expect(card(page, 'Starter')).toContainText('₹12,000');
  });
});
