import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test, expect, expectNoAxeViolations } from './fixtures';

// The first five minutes (issue 16): a server started with no account prints a one-time setup
// address; the sign-in page says how to make the first account; the setup page makes the owner
// and signs them in, once. This spec runs its own server on a fresh, empty data folder.

const DIST = path.resolve(process.env.MANNA_DIST ?? 'dist');
let child: ChildProcess;
let origin: string;
let setupAddress: string;
let dataDir: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-first-run-'));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DIST_DIR: DIST,
      SEED_DEMO: 'true',
      NODE_ENV: 'production',
      PUBLIC_URL: origin,
      SECRET: 'e2e-first-run-secret-0123456789abcdef0123456789',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (d) => (output += d));
  setupAddress = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no setup address printed:\n${output}`)), 90_000);
    child.stdout?.on('data', (d) => {
      output += d;
      const found = /(http:\/\/\S+\/admin\/setup\?token=[\w-]+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', () => reject(new Error(`the server stopped:\n${output}`)));
  });
});

test.afterAll(async () => {
  child?.kill('SIGTERM');
  await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
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

    // the address is used up, and the sign-in page no longer offers it
    const other = await browser.newContext();
    const again = await other.newPage();
    await again.goto(setupAddress);
    await expect(again.getByRole('alert')).toHaveText(
      'This site already has an account. Sign in with it, or ask its owner to add you.',
    );
    await again.goto(`${origin}/admin/login`);
    await expect(again.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(again.getByRole('note')).toHaveCount(0);
    await other.close();
  });
});
