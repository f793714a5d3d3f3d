import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { addAuthenticatorApp, enterTotp, lastTotpStep, markTotpStepUsed } from '../e2e/admin-helpers';
import { test, expect, expectNoAxeViolations } from '../e2e/fixtures';
import { samplePdf } from '../fixtures/files';

// Run by scripts/test-container.mjs against the image running on PostgreSQL and Redis, twice:
// CONTAINER_PHASE=first applies and finds the application; CONTAINER_PHASE=again (a new container
// on the same volume and database) finds it and its CV again. The owner comes from ADMIN_EMAIL and
// ADMIN_PASSWORD, which the script gives the container and this spec. A new install's owner signs in
// with a second factor: the first phase sets up an authenticator app and keeps its key in
// CONTAINER_FACTOR_FILE; the second phase signs in with a code from it.
const phase = process.env.CONTAINER_PHASE ?? 'first';
const owner = {
  email: process.env.CONTAINER_OWNER_EMAIL ?? '',
  password: process.env.CONTAINER_OWNER_PASSWORD ?? '',
};
const candidate = 'Container Candidate';
const cv = samplePdf(`${candidate} - CV`);

async function signInAndOpenApplications(page: Page) {
  await page.goto('/admin/job_applications');
  await expect(page).toHaveURL(/\/admin\/login\?next=/);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const factorFile = process.env.CONTAINER_FACTOR_FILE ?? '';
  if (phase === 'first') {
    await expect(page.getByText('Your role requires a second factor.')).toBeVisible();
    const { secret } = await addAuthenticatorApp(page);
    // the step its code was used for goes along: the next phase may start within the same 30 seconds
    fs.writeFileSync(factorFile, JSON.stringify({ secret, step: lastTotpStep(secret) }), { mode: 0o600 });
    await page.goto('/admin/job_applications');
  } else {
    const { secret, step } = JSON.parse(fs.readFileSync(factorFile, 'utf8')) as {
      secret: string;
      step: number;
    };
    markTotpStepUsed(secret, step);
    await enterTotp(page, secret);
  }
  await expect(page.getByRole('complementary', { name: 'Admin Panel' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/job_applications/);
}

test.beforeAll(() => {
  expect(owner.email, 'CONTAINER_OWNER_EMAIL and CONTAINER_OWNER_PASSWORD are set').toContain('@');
});

test('a candidate applies with a CV through /careers', async ({ page }) => {
  test.skip(phase !== 'first', 'applied in the first phase');
  await page.goto('/careers');
  const card = page.getByRole('article').first();
  const title = (await card.getByRole('heading', { level: 2 }).textContent())!.trim();
  await card.getByRole('button', { name: 'Apply' }).click();
  const dialog = page.getByRole('dialog', { name: `Apply for: ${title}` });
  await dialog.getByLabel('Full Name').fill(candidate);
  await dialog.getByLabel('Email Address').fill('candidate@container.example');
  await dialog.getByLabel('Contact Number').fill('9123456780');
  await dialog.getByRole('textbox', { name: 'Address', exact: true }).fill('4 Beach Road, Kochi');
  await dialog
    .getByLabel('Upload Your Current CV/Resume')
    .setInputFiles({ name: `${candidate} CV.pdf`, mimeType: 'application/pdf', buffer: cv });
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Application submitted successfully!')).toBeVisible();
  await expectNoAxeViolations(page);
});

test('the owner finds the application and reads its CV', async ({ page }) => {
  await signInAndOpenApplications(page);
  const row = page
    .getByRole('region', { name: 'Applications', exact: true })
    .locator('tbody tr', { hasText: candidate });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `View the application of ${candidate}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Application Details' });
  await expect(dialog.getByText('candidate@container.example', { exact: true })).toBeVisible();
  const href = await dialog.getByRole('link', { name: /View Resume/ }).getAttribute('href');
  expect(href).toMatch(/^\/media\/private\/cv\//);
  const file = await page.request.get(href!);
  expect(file.status()).toBe(200);
  expect(Buffer.compare(await file.body(), cv), 'the CV is the file the candidate sent, byte for byte').toBe(
    0,
  );
  await expectNoAxeViolations(page);
});
