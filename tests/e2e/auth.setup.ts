import fs from 'node:fs';
import { test as setup, expect } from '@playwright/test';
import { OWNER, OWNER_STATE } from './admin-helpers';

// The setup project (playwright.config.ts): the owner signs in through the sign-in page once per
// run, and the specs reuse the session (admin-helpers.ts signIn). Specs that test signing in, or
// that sign out, sign in through the page themselves.
setup('the owner signs in once for the suite', async ({ page }) => {
  await page.goto('/admin/books');
  await expect(page).toHaveURL(/\/admin\/login\?next=/);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('complementary', { name: 'Admin Panel' })).toBeVisible();
  fs.mkdirSync(new URL('.', `file://${OWNER_STATE}`).pathname, { recursive: true });
  await page.context().storageState({ path: OWNER_STATE });
});
