import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request as playwrightRequest } from '@playwright/test';
import { test, expect, expectNoAxeViolations } from './fixtures';
import { fillApplication } from './apply-helpers';
import { OWNER, createOpeningByApi, ownerApi, passwordOnlyOwners, signIn } from './admin-helpers';
import { freePort, OwnServer } from './own-server';

// More than 20 openings: /careers and the admin's Current Openings page through them, 20 a page,
// with the page in the address. This spec runs its own server: 45 more openings would move the
// seeded ones that other specs look for off the first page of the shared server.

const DIST = path.resolve(process.env.MANNA_DIST ?? 'dist');
const COUNT = 45;
let server: OwnServer;
let dataDir: string;
let total: number;
/** The first opening this spec made: the oldest of the 45, so on the last page. */
const FIRST = 'Paged Opening 01';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-openings-pages-'));
  server = new OwnServer(await freePort(), DIST, dataDir, {
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: OWNER.email,
    ADMIN_PASSWORD: OWNER.password,
  });
  await server.start();
  const request = await playwrightRequest.newContext({ baseURL: server.origin });
  await passwordOnlyOwners(request, server.origin);
  const api = await ownerApi(request, server.origin);
  for (let i = 1; i <= COUNT; i++)
    await createOpeningByApi(api, request, `Paged Opening ${String(i).padStart(2, '0')}`);
  const rows = await (await request.get('/api/bind-job-openings?pagesize=1')).json();
  total = rows[0].total_count;
  expect(total).toBeGreaterThanOrEqual(COUNT);
  await request.dispose();
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('the admin pages through every opening, reaches the last page by address and edits an opening there', async ({
  page,
}) => {
  const lastPage = Math.ceil(total / 20);
  await signIn(page, OWNER, `${server.origin}/admin/books`);
  const cards = page.getByRole('list', { name: 'Current Openings' }).getByRole('listitem');
  await expect(cards).toHaveCount(20);
  const pager = page.getByRole('navigation', { name: 'Job opening pages' });
  await expect(pager.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');

  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/admin\/books\?page=2$/);
  await expect(pager.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  await expect(cards).toHaveCount(20);

  await pager.getByRole('button', { name: `Page ${lastPage}` }).click();
  await expect(page).toHaveURL(new RegExp(`\\?page=${lastPage}$`));
  await expect(cards).toHaveCount(total - (lastPage - 1) * 20);
  await expect(page.getByRole('heading', { name: FIRST })).toBeVisible();

  // the page survives a reload, and back goes to the page before
  await page.reload();
  await expect(page.getByRole('heading', { name: FIRST })).toBeVisible();
  await expect(pager.getByRole('button', { name: `Page ${lastPage}` })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await page.goBack();
  await expect(page).toHaveURL(/\?page=2$/);
  await expect(pager.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: FIRST })).toHaveCount(0);
  await page.goForward();
  await expect(page.getByRole('heading', { name: FIRST })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: `Edit ${FIRST}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Job Opening' });
  await dialog.getByLabel('Job Title').fill(`${FIRST} (edited)`);
  await dialog.getByRole('button', { name: 'Update Job' }).click();
  await expect(page.getByText('Job updated successfully')).toBeVisible();
  await expect(page.getByRole('heading', { name: `${FIRST} (edited)` })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`\\?page=${lastPage}$`));
});

test('a visitor pages /careers 20 at a time and applies to the oldest opening on the last page', async ({
  page,
}) => {
  const lastPage = Math.ceil(total / 20);
  const title = `${FIRST} (edited)`;
  await page.goto(`${server.origin}/careers`);
  await expect(page.getByRole('article')).toHaveCount(20);
  const pager = page.getByRole('navigation', { name: 'Job opening pages' });
  await pager.getByRole('button', { name: `Page ${lastPage}` }).click();
  await expect(page).toHaveURL(new RegExp(`/careers\\?page=${lastPage}$`));
  await expect(page.getByRole('article')).toHaveCount(total - (lastPage - 1) * 20);
  await expectNoAxeViolations(page);

  // the address alone opens that page (a shared link, a reload)
  await page.goto(`${server.origin}/careers?page=${lastPage}`);
  const card = page.getByRole('article', { name: title });
  await card.getByRole('button', { name: 'Apply' }).click();
  const dialog = page.getByRole('dialog', { name: `Apply for: ${title}` });
  await fillApplication(page, 'asha.paged@e2e.example');
  await dialog.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(page.getByText('Application submitted successfully!')).toBeVisible();

  const db = server.db();
  try {
    const row = db
      .prepare(
        `SELECT o.job_title FROM job_application a JOIN job_opening o ON o.job_id = a.job_id WHERE a.email = ?`,
      )
      .get('asha.paged@e2e.example') as { job_title: string } | undefined;
    expect(row?.job_title).toBe(title);
  } finally {
    db.close();
  }

  // an address past the end (an old link) opens the first page, and says so in the address
  await page.goto(`${server.origin}/careers?page=${lastPage + 5}`);
  await expect(page).toHaveURL(new RegExp(`/careers$`));
  await expect(page.getByRole('article')).toHaveCount(20);
});
