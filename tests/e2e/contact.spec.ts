import type { Page } from '@playwright/test';
import { test, expect, expectNoAxeViolations } from './fixtures';

// The contact page: offices, the map and its tooltips (spec delays), and the 'Get in
// Touch' form that really sends, with every message of the form.

async function open(page: Page, address = '/contact') {
  await page.goto(address);
  await expect(page.locator('#root')).toHaveAttribute('data-hydrated', 'true');
}

const form = (page: Page) => page.getByRole('form', { name: 'Get in Touch' });
const field = (page: Page, label: string) => form(page).getByLabel(label, { exact: false });

test('shows the intro, the two offices and their hours', async ({ page }) => {
  await open(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Us');
  await expect(page.getByText(/publisher .* business .* partner/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Our Offices' })).toBeVisible();
  const offices = page.getByTestId('offices').getByRole('listitem');
  await expect(offices).toHaveCount(2);
  await expect(offices.getByRole('heading', { level: 3 })).toHaveText([
    'London, United Kingdom',
    'San Francisco, United States',
  ]);
  await expect(offices.getByText('Mon-Fri, 9 AM - 6 PM')).toHaveCount(2);
  // neither office is the headquarters
  await expect(page.getByText('HQ', { exact: true })).toHaveCount(0);
});

test.describe('office map', () => {
  test('hovering a marker shows its tooltip after the 700 ms tooltip delay', async ({ page }) => {
    // The page's clock is Playwright's, so the delay is measured in the page's own time and a
    // slow machine cannot make the check pass or fail.
    await page.clock.install();
    await open(page);
    await page.clock.pauseAt(Date.now() + 60_000);
    const marker = page.getByRole('button', { name: 'London, United Kingdom office' });
    const tooltip = page.getByRole('tooltip').filter({ hasText: 'London' });
    await marker.hover();
    await page.clock.runFor(650);
    await expect(tooltip).toBeHidden();
    await page.clock.runFor(100);
    await expect(tooltip).toBeVisible();
    await page.clock.resume();
    await expect(tooltip).toContainText('United Kingdom');
    await expect(tooltip).toContainText('18 Aldgate Row, London EC3N 1AL');
    await expect(tooltip).toContainText('+44 20 7946 0321');
    await expect(tooltip).toContainText('london@manna.example');
    await expect(tooltip).not.toContainText('HQ');
    await expectNoAxeViolations(page, { label: '/contact with a tooltip' });
    // leaving hides it
    await page.mouse.move(5, 5);
    await expect(tooltip).toBeHidden();
  });

  test('moving to the next marker within 300 ms opens its tooltip at once', async ({ page }) => {
    await page.clock.install();
    await open(page);
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.getByRole('button', { name: 'London, United Kingdom office' }).hover();
    await page.clock.runFor(750);
    await expect(page.getByRole('tooltip').filter({ hasText: 'London' })).toBeVisible();
    await page.getByRole('button', { name: 'San Francisco, United States office' }).hover();
    await page.clock.runFor(10);
    await expect(page.getByRole('tooltip').filter({ hasText: 'San Francisco' })).toBeVisible();
    await page.clock.resume();
  });

  test('keyboard focus shows the tooltip, Escape hides it', async ({ page }) => {
    await open(page);
    const marker = page.getByRole('button', { name: 'San Francisco, United States office' });
    await marker.focus();
    const tooltip = page.getByRole('tooltip').filter({ hasText: 'San Francisco' });
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toContainText('500 Harbor View Street, Suite 300, San Francisco, CA 94105');
    await expect(tooltip).toContainText('sf@manna.example');
    await expect(marker).toHaveAccessibleDescription(/San Francisco.*United States/);
    await page.keyboard.press('Escape');
    await expect(tooltip).toBeHidden();
    await expect(marker).toBeFocused();
  });
});

test.describe('Get in Touch form', () => {
  test('has the fields of the spec and the reply promise', async ({ page }) => {
    await open(page);
    await expect(form(page).getByRole('heading', { name: 'Get in Touch' })).toBeVisible();
    await expect(field(page, 'Full Name')).toHaveAttribute('aria-required', 'true');
    await expect(field(page, 'Email Address')).toHaveAttribute('aria-required', 'true');
    await expect(field(page, 'Company/Organization')).not.toHaveAttribute('aria-required', 'true');
    await expect(form(page).getByText('(optional)')).toBeVisible();
    await expect(field(page, 'Message')).toHaveAttribute('rows', '6');
    await expect(form(page).getByRole('button', { name: 'Send Message' })).toBeVisible();
    await expect(form(page).getByText("We'll get back to you within 24 hours.")).toBeVisible();
    // the honeypot is for bots only: not visible, not reachable by keyboard
    const honeypot = page.locator('input[name="website"]');
    await expect(honeypot).toHaveAttribute('tabindex', '-1');
    await expect(honeypot).toHaveAttribute('autocomplete', 'off');
    expect(await honeypot.evaluate((el) => el.getBoundingClientRect().right <= 0)).toBe(true);
  });

  test('an empty submit shows every message, focuses Full Name, and the messages vanish after 0.5 s', async ({
    page,
  }) => {
    await page.clock.install();
    await open(page);
    await page.clock.pauseAt(Date.now() + 60_000);
    await form(page).getByRole('button', { name: 'Send Message' }).click();
    const errors = form(page).getByRole('alert');
    await expect(errors).toHaveText(['Name is required', 'Email is required', 'Message is required']);
    await expect(field(page, 'Full Name')).toBeFocused();
    await expect(field(page, 'Full Name')).toHaveAttribute('aria-invalid', 'true');
    // on the page's own clock: still there at 0.45 s, gone at 0.55 s
    await page.clock.runFor(450);
    await expect(errors).toHaveCount(3);
    await page.clock.runFor(100);
    await expect(errors).toHaveCount(0);
    await page.clock.resume();
  });

  test('focuses the first invalid field: the email when only the name is given', async ({ page }) => {
    await open(page);
    await field(page, 'Full Name').fill('Asha Menon');
    await form(page).getByRole('button', { name: 'Send Message' }).click();
    await expect(form(page).getByRole('alert')).toHaveText(['Email is required', 'Message is required']);
    await expect(field(page, 'Email Address')).toBeFocused();
  });

  test('checks the email while typing and on blur', async ({ page }) => {
    await open(page);
    await field(page, 'Email Address').pressSequentially('asha@jour');
    await expect(form(page).getByText('Please enter a valid email')).toBeVisible();
    await expect(form(page).getByText('Please enter a valid email')).toBeHidden({ timeout: 2000 });
    await field(page, 'Email Address').fill('');
    await field(page, 'Message').focus();
    await expect(form(page).getByText('Email is required')).toBeVisible();
  });

  test('sends the message: Sending..., a green confirmation, and an empty form', async ({ page }) => {
    await open(page);
    const unique = `Please show us the review workflow (${Date.now()}).`;
    await field(page, 'Full Name').fill('Asha Menon');
    await field(page, 'Email Address').fill('asha@journal.example');
    await field(page, 'Company/Organization').fill('Kerala Journal of Botany');
    await field(page, 'Message').fill(unique);
    // hold the answer a moment so the busy state can be seen
    await page.route('**/api/contact-messages', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    const request = page.waitForRequest('**/api/contact-messages');
    const response = page.waitForResponse('**/api/contact-messages');
    await form(page).getByRole('button', { name: 'Send Message' }).click();
    await expect(form(page).getByRole('button', { name: 'Sending...' })).toBeVisible();
    const sent = await request;
    expect(sent.headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.postDataJSON()).toMatchObject({
      name: 'Asha Menon',
      email: 'asha@journal.example',
      company: 'Kerala Journal of Botany',
      message: unique,
      website: '',
      lang: 'en',
    });
    const answer = await response;
    expect(answer.status()).toBe(201);
    expect((await answer.json()).message_id).toBeGreaterThan(0);
    await expect(page.getByRole('status').filter({ hasText: 'Your message has been sent' })).toBeVisible();
    await expect(field(page, 'Full Name')).toHaveValue('');
    await expect(field(page, 'Message')).toHaveValue('');
    await expect(form(page).getByRole('button', { name: 'Send Message' })).toBeVisible();
  });

  test.describe('when the server fails', () => {
    test.use({
      allowedConsoleErrors: [/Failed to load resource: the server responded with a status of 503/],
    });

    test('keeps what was typed and says so in a red toast', async ({ page }) => {
      await open(page);
      await page.route('**/api/contact-messages', (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'Down' }),
        }),
      );
      await field(page, 'Full Name').fill('Ravi');
      await field(page, 'Email Address').fill('ravi@example.org');
      await field(page, 'Message').fill('Hello');
      await form(page).getByRole('button', { name: 'Send Message' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: 'Your message could not be sent' }),
      ).toBeVisible();
      await expect(field(page, 'Full Name')).toHaveValue('Ravi');
      await expect(field(page, 'Message')).toHaveValue('Hello');
      await expect(form(page).getByRole('button', { name: 'Send Message' })).toBeVisible();
    });
  });

  test('the form works in Malayalam with translated messages', async ({ page }) => {
    await open(page, '/ml/contact');
    const mlForm = page.getByRole('form', { name: 'ഞങ്ങൾക്ക് എഴുതൂ' });
    await mlForm.getByRole('button', { name: 'സന്ദേശം അയയ്ക്കുക' }).click();
    await expect(mlForm.getByRole('alert')).toHaveText(['പേര് ആവശ്യമാണ്', 'ഇമെയിൽ ആവശ്യമാണ്', 'സന്ദേശം ആവശ്യമാണ്']);
    await expect(mlForm.getByLabel('മുഴുവൻ പേര്')).toBeFocused();
    await expectNoAxeViolations(page, { label: '/contact (ml) with errors' });
  });
});
