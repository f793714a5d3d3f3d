import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { test, expect, expectNoAxeViolations } from './fixtures';
import { addAuthenticatorApp, ageProof, enterTotp, OWNER, ownerApi, signIn } from './admin-helpers';
import { freePort, OwnServer } from './own-server';

// Second factors in Chromium (docs/decisions/024-second-factors.md): a role that requires one,
// the authenticator app read off the screen and its codes computed here, recovery codes, the
// sessions list, an owner turning the rule on in Users & Roles, and passkeys with Chromium's
// virtual authenticator (on a server of the spec's own at http://localhost, as WebAuthn wants a
// domain, not an address). Each test makes its own role and user: the suite's owner stays as it is.

let n = 0;
/** A custom role (blog.manage) and a user of it with a known password, made by the owner's API. */
async function userOfNewRole(request: APIRequestContext, baseURL: string, requires: boolean) {
  const api = await ownerApi(request, baseURL);
  const role = `Writers ${Date.now() % 1e7} ${++n}`;
  const made = await api.post('/api/admin/roles', {
    name: role,
    permissions: ['blog.manage'],
    requires_second_factor: requires,
  });
  expect(made.status()).toBe(200);
  const user = {
    email: `writer.${Date.now()}.${n}@e2e.example`,
    password: 'writer passphrase for e2e tests',
  };
  expect((await api.post('/api/admin/users', { ...user, role })).status()).toBe(200);
  return { role, ...user };
}

async function signInWithPassword(page: Page, who: { email: string; password: string }, at = '/admin/blog') {
  await page.goto(at);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
}

test.describe('an authenticator app', () => {
  // the browser's own line for the wrong code the test types on purpose (400)
  test.use({ allowedConsoleErrors: [/the server responded with a status of 400/] });

  test('a role that requires a factor leads to setting one up; then codes and recovery codes sign in', async ({
    page,
    request,
    baseURL,
  }) => {
    const who = await userOfNewRole(request, baseURL!, true);
    await signInWithPassword(page, who);
    // nothing else until a factor is set up
    await expect(page).toHaveURL(/\/admin\/password#security$/);
    await expect(page.getByText('Your role requires a second factor.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Change password' })).toHaveCount(0);
    await expectNoAxeViolations(page, { label: 'factor setup required' });
    await page.getByRole('link', { name: 'Blog' }).click();
    await expect(page).toHaveURL(/\/admin\/password#security$/);

    await page.getByRole('button', { name: 'Add an authenticator app' }).click();
    await expect(
      page.getByRole('img', { name: 'QR code to add Manna to an authenticator app' }),
    ).toBeVisible();
    await expectNoAxeViolations(page, { label: 'the authenticator app setup' });
    await page.getByRole('button', { name: 'Cancel' }).click();
    const { secret, codes } = await addAuthenticatorApp(page, 'My phone');
    await expect(page.getByRole('list', { name: 'Second factors' })).toContainText('My phone');
    await expect(page.getByText('10 unused recovery codes left.')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Your sessions' })).toContainText('This device');
    // the back office is open now
    await page.getByRole('link', { name: 'Blog' }).click();
    await expect(page.getByRole('heading', { name: 'Blog', level: 1 })).toBeVisible();

    // the password alone opens only the second step
    await signOut(page);
    await signInWithPassword(page, who);
    await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
    await expectNoAxeViolations(page, { label: 'the second step' });
    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toContainText('That code is not right.');
    await expect(page.getByLabel('Authentication code')).toHaveValue('000000');
    await page.getByLabel('Authentication code').fill('');
    await enterTotp(page, secret);
    await expect(page.getByRole('complementary', { name: 'Admin Panel' })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/blog/);

    // a recovery code, typed as people do (capitals, a space), says how many are left
    await signOut(page);
    await signInWithPassword(page, who);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(codes[0].toUpperCase().replace('-', ' '));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('complementary', { name: 'Admin Panel' })).toBeVisible();
    await expect(page.getByText('9 recovery codes are left.', { exact: false })).toBeVisible();

    // a used recovery code does not work again
    await signOut(page);
    await signInWithPassword(page, who);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toContainText('That code is not right.');
    await page.getByRole('button', { name: 'Cancel and sign in again' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
  });

  test('the second step in every language, on a phone, passes axe', async ({ browser, request, baseURL }) => {
    const who = await userOfNewRole(request, baseURL!, true);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signInWithPassword(page, who);
    await addAuthenticatorApp(page);
    await expectNoAxeViolations(page, { label: 'Sign-in security on a phone' });
    const titles: Record<string, string> = {
      en: 'Two-step sign-in',
      de: 'Anmeldung in zwei Schritten',
      es: 'Acceso en dos pasos',
      fr: 'Connexion en deux étapes',
      ml: 'രണ്ട്-ഘട്ട സൈൻ-ഇൻ',
    };
    for (const [lang, title] of Object.entries(titles)) {
      await context.clearCookies();
      await context.addCookies([{ name: 'lang', value: lang, url: baseURL! }]);
      await page.goto('/admin/login');
      await page.locator('#login-email').fill(who.email);
      await page.locator('#login-password').fill(who.password);
      await page.locator('form button[type=submit]').click();
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expectNoAxeViolations(page, { label: `the second step in ${lang}` });
    }
    await context.close();
  });
});

test.describe('an owner at Users & Roles', () => {
  // the server's refusals the dialog answers: 403 (a fresh proof first), 400 (a wrong password)
  test.use({ allowedConsoleErrors: [/status of (403|400)/] });

  test('an owner requires a second factor for a role, sees who has one, and clears a lost one', async ({
    page,
    browser,
    request,
    baseURL,
  }) => {
    const who = await userOfNewRole(request, baseURL!, false);
    await signIn(page, undefined, '/admin/users');
    const role = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('group', { name: new RegExp(`^${who.role}`) }) });
    const rule = role.getByRole('checkbox', { name: 'Members sign in with a second factor' });
    await expect(rule).not.toBeChecked();
    // the suite's session proved itself long ago: a rule of a role waits for a fresh proof
    ageProof(OWNER.email);
    await rule.click();
    const ask = page.getByRole('dialog', { name: 'Confirm it is you' });
    await ask.getByLabel('Password').fill(OWNER.password);
    await ask.getByRole('button', { name: 'Confirm' }).click();
    await expect(ask).toHaveCount(0);
    await expect(rule).toBeChecked();
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: who.email }) });
    await expect(row.getByText('Password only')).toBeVisible();

    const member = await browser.newContext();
    const theirs = await member.newPage();
    await signInWithPassword(theirs, who);
    await expect(theirs).toHaveURL(/\/admin\/password#security$/);
    await expect(theirs.getByText('Your role requires a second factor.')).toBeVisible();
    await addAuthenticatorApp(theirs);

    // the owner sees it, and clears it for them (a lost phone): they set one up again
    await page.reload();
    await expect(row.getByText('Second factor', { exact: true })).toBeVisible();
    await expectNoAxeViolations(page, { label: 'users with and without a second factor' });
    // signed in long ago (the proof is stale): clearing asks who it is in place, then goes on
    ageProof(OWNER.email);
    await row.getByRole('button', { name: `Clear second factors ${who.email}` }).click();
    await page
      .getByRole('dialog', { name: 'Please confirm' })
      .getByRole('button', { name: 'Yes, continue' })
      .click();
    const proof = page.getByRole('dialog', { name: 'Confirm it is you' });
    await expect(proof).toContainText('This change needs a fresh proof that it is you');
    await expectNoAxeViolations(page, { label: 'fresh proof before clearing factors' });
    await proof.getByLabel('Password').fill('a wrong password here');
    await proof.getByRole('button', { name: 'Confirm' }).click();
    await expect(proof.getByRole('alert')).toBeVisible();
    await expect(row.getByText('Second factor', { exact: true })).toBeVisible();
    await proof.getByLabel('Password').fill(OWNER.password);
    await proof.getByRole('button', { name: 'Confirm' }).click();
    await expect(proof).toHaveCount(0);
    await expect(row.getByText('Password only')).toBeVisible();
    await theirs.getByRole('link', { name: 'Blog' }).click();
    await expect(theirs.getByRole('dialog', { name: 'Your session has ended' })).toBeVisible();
    await member.close();
  });
});

test.describe('passkeys', () => {
  test.describe.configure({ mode: 'serial' });
  let server: OwnServer;
  let dataDir: string;
  let origin: string;
  const owner = { email: 'owner@passkeys.example', password: 'passkey owner passphrase 2026' };

  test.beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-passkeys-'));
    const port = await freePort();
    origin = `http://localhost:${port}`;
    server = new OwnServer(port, path.resolve(process.env.MANNA_DIST ?? 'dist'), dataDir, {
      LOG_LEVEL: 'warn',
      PUBLIC_URL: origin,
      ADMIN_EMAIL: owner.email,
      ADMIN_PASSWORD: owner.password,
    });
    await server.start();
  });
  test.afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A page with Chromium's virtual authenticator: a platform passkey with user verification. */
  async function withAuthenticator(browser: Browser) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return { context, page };
  }

  test('an owner adds a passkey, then signs in with it alone, and with password then passkey', async ({
    browser,
  }) => {
    const { context, page } = await withAuthenticator(browser);
    await signInWithPassword(page, owner, `${origin}/admin/books`);
    await expect(page.getByText('Your role requires a second factor.')).toBeVisible();
    await page.getByLabel('Name of the new passkey').fill('This laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save your recovery codes' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'I have saved them' }).click();
    await expect(page.getByRole('list', { name: 'Second factors' })).toContainText('This laptop');
    await expectNoAxeViolations(page, { label: 'a passkey added' });

    // the passkey alone: no email, no password
    await signOut(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('complementary', { name: 'Admin Panel' })).toBeVisible();
    await expect(page.getByText(owner.email)).toBeVisible();

    // the password, then the passkey as the second step
    await signOut(page);
    await signInWithPassword(page, owner, `${origin}/admin/books`);
    await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(page.getByRole('complementary', { name: 'Admin Panel' })).toBeVisible();
    await context.close();
  });
});
