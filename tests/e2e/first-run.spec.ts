import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, expectNoAxeViolations } from './fixtures';
import { freePort, OwnServer } from './own-server';

// The first five minutes: a server started with no account prints a one-time setup address; the
// sign-in page says how to make the first account; the setup page makes the owner and signs them
// in, once. This spec runs its own server on a fresh, empty data folder.

const DIST = path.resolve(process.env.MANNA_DIST ?? 'dist');
let server: OwnServer;
let origin: string;
let setupAddress: string;
let dataDir: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-first-run-'));
  server = new OwnServer(await freePort(), DIST, dataDir, {
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: '',
    ADMIN_PASSWORD: '',
  });
  origin = server.origin;
  await server.start();
  setupAddress = (await server.waitForOutput(/(http:\/\/\S+\/admin\/setup\?token=[\w-]+)/))[1];
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('the sign-in page of a site with no account says how to make the first one', async ({ page }) => {
  await page.goto(`${origin}/admin/login`);
  const hint = page.getByRole('note');
  await expect(hint).toContainText('No account exists yet');
  await expect(hint).toContainText('npm run create-admin');
  await expectNoAxeViolations(page);
});

test.describe('the setup page', () => {
  // the browser's own line for the refused weak password (400), which the test sends on purpose
  test.use({ allowedConsoleErrors: [/the server responded with a status of 400/] });

  test('the printed setup address makes the owner account and signs them in, once', async ({
    page,
    browser,
  }) => {
    expect(setupAddress.startsWith(`${origin}/admin/setup?token=`)).toBe(true);
    await page.goto(setupAddress);
    const form = page.locator('form');
    await expect(page.getByRole('heading', { name: 'Create the owner account' })).toBeVisible();
    await expectNoAxeViolations(page);

    await form.getByLabel('Email').fill('founder@manna.example');
    await form.getByLabel('Password', { exact: true }).fill('Copper kettle on a winter morning');
    await form.getByLabel('Repeat the password').fill('Copper kettle on a winter');
    await form.getByRole('button', { name: 'Create the account and sign in' }).click();
    await expect(form.getByText('The passwords do not match.')).toBeVisible();
    await expect(form.getByLabel('Repeat the password')).toHaveAttribute('aria-invalid', 'true');

    // the server's rule, on its field, and nothing typed is lost
    await form.getByLabel('Password', { exact: true }).fill('password123456');
    await form.getByLabel('Repeat the password').fill('password123456');
    await form.getByRole('button', { name: 'Create the account and sign in' }).click();
    await expect(form.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByLabel('Email')).toHaveValue('founder@manna.example');
    await expectNoAxeViolations(page, { label: 'setup with a refused password' });

    await form.getByLabel('Password', { exact: true }).fill('Copper kettle on a winter morning');
    await form.getByLabel('Repeat the password').fill('Copper kettle on a winter morning');
    await form.getByRole('button', { name: 'Create the account and sign in' }).click();
    await expect(page.getByRole('complementary', { name: 'Admin Panel' })).toBeVisible();
    await expect(page).not.toHaveURL(/setup/);
    // a new install's owners sign in with a second factor: setting one up comes first
    await expect(page).toHaveURL(/\/admin\/password#security$/);
    await expect(page.getByText('Your role requires a second factor.')).toBeVisible();
    await expectNoAxeViolations(page, { label: 'the second factor the owner sets up first' });

    // the address is used up, and the sign-in page no longer offers it
    const other = await browser.newContext();
    const again = await other.newPage();
    await again.goto(setupAddress);
    await expect(again.getByRole('alert')).toHaveText(
      'This site already has an account. Sign in with it, or ask its owner to add you.',
    );
    await again.goto(`${origin}/admin/login`);
    await expect(again.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    await expect(again.getByRole('note')).toHaveCount(0);
    await other.close();
  });
});
