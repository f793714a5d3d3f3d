import path from 'node:path';
import Database from 'better-sqlite3';
import { test, expect, expectNoAxeViolations } from './fixtures';
import { fillApplication } from './apply-helpers';
import { createOpeningByApi, ownerApi, signIn } from './admin-helpers';

// Visit figures (docs/decisions/028-visit-figures.md): a candidate comes from a campaign link, applies, and staff find the
// application on the Insights screen under its campaign, its landing page and its opening.

/** The page views the e2e server stored with this campaign (its database, read-only). */
function storedViews(campaign: string) {
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, 'manna.sqlite'), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    return db
      .prepare('select path, landing, utm_source, utm_medium from analytics_view where utm_campaign = ?')
      .all(campaign);
  } finally {
    db.close();
  }
}

test('an application from a campaign link shows under its campaign, landing page and opening on Insights', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  const run = Date.now().toString(36);
  const campaign = `e2e-autumn-${run}`;
  const title = `Insights Copy Editor ${run}`;
  const api = await ownerApi(request, baseURL!);
  await createOpeningByApi(api, request, title);

  // the candidate: a browser of its own, no account, arriving from the newsletter's link
  const visitor = await browser.newContext();
  const candidate = await visitor.newPage();
  let views = 0;
  candidate.on('request', (r) => {
    if (r.url().endsWith('/api/views') && r.method() === 'POST') views++;
  });
  await candidate.goto(`/careers?utm_source=newsletter&utm_medium=email&utm_campaign=${campaign}`);
  await expect(candidate.locator('#root')).toHaveAttribute('data-hydrated', 'true');
  // the page view went out on its own, with the campaign and no cookie
  await expect.poll(() => views, { timeout: 10_000 }).toBeGreaterThan(0);
  await expect
    .poll(() => storedViews(campaign), { timeout: 10_000 })
    .toEqual([{ path: '/careers', landing: '/careers', utm_source: 'newsletter', utm_medium: 'email' }]);
  expect(await visitor.cookies()).toEqual([]);
  const card = candidate.getByRole('article', { name: title });
  await card.getByRole('button', { name: 'Apply' }).click();
  await fillApplication(candidate, `insights-${run}@example.com`);
  await candidate.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
  await expect(candidate.getByText('Application submitted successfully!')).toBeVisible({ timeout: 15_000 });
  await visitor.close();

  // staff: the campaign's row on Insights, clicked, narrows the whole screen to it
  await signIn(page, undefined, '/admin/insights');
  const byCampaign = page.getByRole('region', { name: 'By campaign' });
  await byCampaign.getByRole('button', { name: campaign }).click();
  await expect(page.getByRole('button', { name: `Remove the filter Campaign: ${campaign}` })).toBeVisible();
  await expect(page.getByText(/^Figures as of/)).toBeVisible();
  await expect(page.getByText('Applications: 1. Contact messages: 0.')).toBeVisible();
  const row = (region: string, key: string) =>
    page.getByRole('region', { name: region }).getByRole('row').filter({ hasText: key });
  await expect(row('By campaign', campaign)).toContainText('1');
  await expect(row('By landing page', '/careers')).toBeVisible();
  await expect(row('Applications per opening', title)).toContainText('1');
  // the campaign's visit itself, and its source: the utm_source its link named
  await expect(row('Campaigns', campaign)).toBeVisible();
  await expect(row('Sources', 'newsletter')).toBeVisible();
  await expectNoAxeViolations(page);

  // the same at a phone's width, and the day chart as a table
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Show as table' }).click();
  await expect(page.getByRole('region', { name: 'Visitors and page views per day' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page);

  // the campaign's table as a CSV file
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download By campaign as CSV' }).click();
  const file = await download;
  const text = await (
    await file.createReadStream()
  )
    .toArray()
    .then((chunks) => Buffer.concat(chunks).toString('utf8'));
  expect(text).toContain(`${campaign},1,1,0`);
});
