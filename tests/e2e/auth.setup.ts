import fs from 'node:fs';
import { test as setup, expect } from '@playwright/test';
import { addAuthenticatorApp, OWNER, OWNER_STATE } from './admin-helpers';

// The setup project (playwright.config.ts): the owner signs in through the sign-in page once per
// run, and the specs reuse the session (admin-helpers.ts signIn). Specs that test signing in, or
// that sign out, sign in through the page themselves.
//
// A new install's owner role requires a second factor (docs/decisions/024), so the first sign-in
// leads to setting one up: the owner adds an authenticator app as a person does. The rest of the
// suite then runs on a site whose owners chose a password alone: the owner turns the rule off in
// Users & Roles and removes the app again (within the fresh proof of the sign-in), so every spec
// signs in as before. second-factors.spec.ts tests the factors themselves, with users of its own.
setup('the owner signs in once for the suite', async ({ page }) => {
  await page.goto('/admin/books');
  await expect(page).toHaveURL(/\/admin\/login\?next=/);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/password#security$/);
  await expect(page.getByText('Your role requires a second factor.')).toBeVisible();
  await addAuthenticatorApp(page, 'Setup phone');

  await page.getByRole('link', { name: 'Users & Roles' }).click();
  const owners = page.getByRole('listitem').filter({ has: page.getByRole('group', { name: /^owner/i }) });
  const rule = owners.getByRole('checkbox', { name: 'Members sign in with a second factor' });
  await expect(rule).toBeChecked();
  await rule.click(); // saved at once; the box shows the role as the server now has it
  await expect(rule).not.toBeChecked();

  await page.getByRole('link', { name: 'Your account' }).click();
  await page.getByRole('button', { name: 'Remove Setup phone' }).click();
  await page
    .getByRole('dialog', { name: 'Remove this second factor?' })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(page.getByText('No second factor yet')).toBeVisible();

  await page.goto('/admin/books');
  await expect(page.getByRole('complementary', { name: 'Admin Panel' })).toBeVisible();
  fs.mkdirSync(new URL('.', `file://${OWNER_STATE}`).pathname, { recursive: true });
  await page.context().storageState({ path: OWNER_STATE });
});
