import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect, expectNoAxeViolations } from './fixtures';
import { applyByApi, makeUser, OWNER, ownerApi, signIn } from './admin-helpers';
import { samplePdf } from '../fixtures/files';

/**
 * The admin's Job Application Details and Messages, against the real server. Applications
 * are made through /careers (or its API, for many at once); messages through /contact.
 */

const tag = () =>
  `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.replace(
    /\d/g,
    (d) => 'abcdefghij'[Number(d)],
  );
const today = () => new Date().toISOString().slice(0, 10);
const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function firstOpening(request: APIRequestContext) {
  const res = await request.get('/api/bind-job-openings?jobid=0&search=&pagenum=1&pagesize=20');
  const rows = (await res.json()) as { job_id: number; job_title: string }[];
  return rows[0];
}

async function applyThroughCareers(page: Page, jobTitle: string, fullName: string, email: string) {
  await page.goto('/careers');
  await page.getByRole('article', { name: jobTitle }).getByRole('button', { name: 'Apply' }).click();
  const dialog = page.getByRole('dialog', { name: `Apply for: ${jobTitle}` });
  await dialog.getByLabel('Full Name').fill(fullName);
  await dialog.getByLabel('Email Address').fill(email);
  await dialog.getByLabel('Contact Number').fill('9123456780');
  await dialog.getByRole('textbox', { name: 'Address', exact: true }).fill('4 Beach Road, Kochi');
  await dialog.getByLabel('Upload Your Current CV/Resume').setInputFiles({
    name: `${fullName} CV.pdf`,
    mimeType: 'application/pdf',
    buffer: samplePdf(`${fullName} - CV`),
  });
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Application submitted successfully!')).toBeVisible();
  await expect(dialog).toBeHidden();
}

async function filter(
  page: Page,
  values: { search?: string; start?: string; end?: string; status?: string },
) {
  const form = page.getByRole('search', { name: 'Filter applications' });
  if (values.search !== undefined) await form.getByLabel('Search Keywords').fill(values.search);
  if (values.start !== undefined) await form.getByLabel('Start Date').fill(values.start);
  if (values.end !== undefined) await form.getByLabel('End Date').fill(values.end);
  if (values.status !== undefined) await form.getByLabel('Status').selectOption(values.status);
  await form.getByRole('button', { name: 'Search' }).click();
}

const rows = (page: Page) =>
  page.getByRole('region', { name: 'Applications', exact: true }).locator('tbody tr');

test.describe('Job Application Details', () => {
  test('an application made through /careers: find it, filter by dates, view the CV, change its status, export, delete', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000); // one long journey through the screen
    const opening = await firstOpening(request);
    const t = tag();
    const name = `Zara Careers ${t}`;
    const email = `zara.${t}@example.com`;
    await applyThroughCareers(page, opening.job_title, name, email);
    // a second one whose name a spreadsheet would run as a formula
    await applyByApi(
      request,
      opening.job_id,
      `=HYPERLINK("http://evil.example") ${t}`,
      `formula.${t}@example.com`,
    );

    await signIn(page, OWNER, '/admin/job_applications');
    await expect(page.getByRole('heading', { name: 'Job Application Details' })).toBeVisible();
    await expect(rows(page).first()).toBeVisible();
    await expect(page.getByText('Loading applications...')).toHaveCount(0);
    await expectNoAxeViolations(page, { label: 'job applications' });

    // keyword
    await filter(page, { search: t });
    await expect(page).toHaveURL(new RegExp(`[?&]search=${t}`));
    await expect(rows(page)).toHaveCount(2);
    const row = rows(page).filter({ hasText: name });
    await expect(row.getByRole('cell')).toHaveText([
      '2',
      name,
      email,
      // stored in E.164, shown as people read it
      '+91 91234 56780',
      opening.job_title,
      /\d{4}/,
      'New',
      '',
    ]);
    await expect(page.getByRole('columnheader')).toHaveText([
      'S.No',
      'Name',
      'Email',
      'Contact Number',
      'Job Role',
      'Applied Date',
      'Status',
      'Action',
    ]);

    // dates: inclusive, the reversed range explained, and the view kept in the address bar
    await filter(page, { start: today(), end: today() });
    await expect(rows(page)).toHaveCount(2);
    await filter(page, { start: dayOffset(1), end: today() });
    await expect(page.getByRole('alert')).toHaveText('Start Date must be on or before End Date');
    await expect(page.getByLabel('Start Date')).toHaveAttribute('aria-invalid', 'true');
    await filter(page, { start: dayOffset(-30), end: dayOffset(-1) });
    await expect(page.getByText('No applications found.')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`startdate=${dayOffset(-30)}&enddate=${dayOffset(-1)}`));
    await page.goBack();
    await expect(rows(page)).toHaveCount(2);
    await page.goto(`/admin/job_applications?search=${t}&startdate=${today()}&enddate=${today()}`);
    await expect(rows(page)).toHaveCount(2); // a bookmarked view
    await expect(page.getByLabel('Search Keywords')).toHaveValue(t);

    // the detail modal
    const viewButton = row.getByRole('button', { name: `View the application of ${name}` });
    await viewButton.click();
    const dialog = page.getByRole('dialog', { name: 'Application Details' });
    await expect(dialog).toBeVisible();
    for (const text of [name, email, '+91 91234 56780', opening.job_title])
      await expect(dialog.getByText(text, { exact: true })).toBeVisible();
    await expect(page.evaluate(() => getComputedStyle(document.documentElement).overflow)).resolves.toBe(
      'hidden',
    );
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true);
    const resume = dialog.getByRole('link', { name: /View Resume/ });
    await expect(resume).toHaveAttribute('target', '_blank');
    const href = (await resume.getAttribute('href'))!;
    expect(href).toMatch(/^\/media\/private\/cv\/[0-9a-f-]{36}\.pdf\?by=\d+&expires=\d+&sig=/);
    await expectNoAxeViolations(page, { label: 'application details modal' });
    // opening the detail made the CV's address, which is no reading of it
    await expect(dialog.getByText('Application received')).toBeVisible();
    await expect(dialog.getByText(/opened the CV/)).toHaveCount(0);

    // View Resume opens the PDF in Chromium's own viewer in a new tab (served inline), no download
    let downloads = 0;
    page.on('download', () => downloads++);
    const [tab] = await Promise.all([page.context().waitForEvent('page'), resume.click()]);
    tab.on('download', () => downloads++);
    await tab.waitForLoadState();
    await expect.poll(() => tab.evaluate(() => document.contentType)).toBe('application/pdf');
    expect(tab.url()).toContain(href);
    const cv = await page.request.get(href);
    expect(cv.headers()['content-disposition']).toMatch(new RegExp(`^inline; filename="${name} CV.pdf"`));
    expect((await cv.body()).subarray(0, 5).toString()).toBe('%PDF-');
    await tab.close();
    expect(downloads).toBe(0);
    // the read is on the timeline, as the owner's, the next time the detail opens
    await dialog.getByRole('button', { name: 'Close' }).click();
    await viewButton.click();
    await expect(dialog.getByText(/opened the CV/)).toHaveCount(1);

    // status
    await dialog.getByLabel('Status').selectOption('Interview');
    await expect(page.getByText('Status changed to Interview')).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(viewButton).toBeFocused();
    await expect(page.evaluate(() => document.documentElement.style.overflow)).resolves.toBe('');
    await expect(row.getByRole('cell').nth(6)).toHaveText('Interview');
    await filter(page, { status: 'Interview' });
    await expect(rows(page)).toHaveCount(1);
    await filter(page, { status: '' });

    // CSV of the filtered view: every row, formulas made harmless
    const exportLink = page.getByRole('link', { name: 'Export CSV' });
    await expect(exportLink).toHaveAttribute('href', new RegExp(`search=${t}`));
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), exportLink.click()]);
    expect(csvDownload.suggestedFilename()).toMatch(/^job-applications-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs
      .readFileSync((await csvDownload.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe(
      'application_id,full_name,email,contact_number,address,job_title,applied_date,status,is_duplicate,consent_at,notes',
    );
    expect(csv).toHaveLength(3);
    expect(csv.find((l) => l.includes(email))).toContain(
      // E.164, with the apostrophe every cell starting with + gets (no spreadsheet reads it as a formula)
      `,${name},${email},'+919123456780,"4 Beach Road, Kochi",`,
    );
    expect(csv.find((l) => l.includes(email))).toContain(',Interview,no,');
    expect(csv.find((l) => l.includes('formula.'))).toContain(
      `,"'=HYPERLINK(""http://evil.example"") ${t}",`,
    );

    // delete the candidate: asked first, then the row and the file are gone
    await viewButton.click();
    await dialog.getByRole('button', { name: 'Delete application' }).click();
    await expect(
      dialog.getByText('Delete this application and its CV? This cannot be undone.'),
    ).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Delete permanently' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog.getByRole('button', { name: 'Delete application' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Delete application' }).click();
    await dialog.getByRole('button', { name: 'Delete permanently' }).click();
    await expect(page.getByText('Application and CV deleted')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).filter({ hasText: name })).toHaveCount(0);

    const key = href.slice('/media/private/'.length, href.indexOf('?'));
    expect(fs.existsSync(path.join(process.env.E2E_DATA_DIR!, 'files', ...key.split('/')))).toBe(false);
    expect((await request.get(href)).status()).toBe(404);
  });

  test('pages of 20 with Prev, numbered pages and Next, kept in the address bar', async ({
    page,
    request,
  }) => {
    const opening = await firstOpening(request);
    const t = tag();
    for (let i = 1; i <= 23; i++)
      await applyByApi(request, opening.job_id, `Pager ${t} Number${i}`, `pager${i}.${t}@example.com`);

    await signIn(page, OWNER, `/admin/job_applications?search=${t}`);
    await expect(rows(page)).toHaveCount(20);
    await expect(page.getByText('Showing 1-20 of 23 applications')).toBeVisible();
    const pager = page.getByRole('navigation', { name: 'Pages of applications' });
    await expect(pager.getByRole('button')).toHaveText(['Prev', '1', '2', 'Next']);
    await expect(pager.getByRole('button', { name: 'Prev' })).toBeDisabled();
    await expect(pager.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    // newest first
    await expect(rows(page).first().getByRole('cell').nth(1)).toHaveText(`Pager ${t} Number23`);

    await pager.getByRole('button', { name: 'Next' }).click();
    await expect(rows(page)).toHaveCount(3);
    await expect(page).toHaveURL(/page=2/);
    await expect(rows(page).first().getByRole('cell').first()).toHaveText('21');
    await expect(page.getByText('Showing 21-23 of 23 applications')).toBeVisible();
    await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();

    await pager.getByRole('button', { name: 'Page 1' }).click();
    await expect(rows(page)).toHaveCount(20);
    await pager.getByRole('button', { name: 'Page 2' }).click();
    await expect(rows(page)).toHaveCount(3);
    await pager.getByRole('button', { name: 'Prev' }).click();
    await expect(rows(page)).toHaveCount(20);
    await page.goBack();
    await expect(rows(page)).toHaveCount(3); // back to page 2
  });
});

test.describe("a staff notice's link", () => {
  for (const width of [1280, 390]) {
    test(`opens the application itself (${width} px)`, async ({ page, request, baseURL }) => {
      await page.setViewportSize({ width, height: 900 });
      const opening = await firstOpening(request);
      const t = tag();
      const name = `Noor ${t}`;
      await applyByApi(request, opening.job_id, name, `noor.${t}@example.com`);
      await ownerApi(request, baseURL!); // the request context is signed in as the owner from here
      const [row] = await (await request.get(`/api/bind-job-applications?search=${t}`)).json();
      await signIn(page, OWNER, `/admin/job_applications?application=${row.application_id}`);
      const detail = page.getByRole('dialog', { name: 'Application Details' });
      await expect(detail).toBeVisible();
      await expect(detail.getByText(name, { exact: true })).toBeVisible();
      await expectNoAxeViolations(page, { label: `one application from a link at ${width} px` });
      await detail.getByRole('button', { name: 'Close' }).click();
      await expect(page.getByText(`Application ${row.application_id}`)).toBeVisible();
      await expect(rows(page)).toHaveCount(1);
      await page.getByRole('button', { name: 'All applications' }).click();
      await expect(page).toHaveURL(/\/admin\/job_applications$/);
      await expect(page.getByText(`Application ${row.application_id}`)).toHaveCount(0);
      await expect(detail).toBeHidden();
    });
  }
});

test.describe("an application's timeline", () => {
  for (const width of [1280, 390]) {
    test(`shows a status change and a note typed with a mention, which a colleague then reads (${width} px)`, async ({
      page,
      browser,
      request,
      baseURL,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const recruiter = await makeUser(request, baseURL!, 'recruiter'); // signs `request` in as the owner
      const handle = recruiter.email.split('@')[0]!;
      const opening = await firstOpening(request);
      const t = tag();
      await applyByApi(request, opening.job_id, `Lena ${t}`, `lena.${t}@example.com`);
      const [row] = await (await request.get(`/api/bind-job-applications?search=${t}`)).json();
      const address = `/admin/job_applications?application=${row.application_id}`;
      await signIn(page, OWNER, address);
      const detail = page.getByRole('dialog', { name: 'Application Details' });
      const timeline = detail.getByRole('region', { name: 'Timeline' });
      await expect(timeline.getByText('Application received')).toBeVisible();
      await expect(timeline.getByText(/^Acknowledgment to the candidate: “.+”Queued$/)).toBeVisible();

      await detail.getByLabel('Status', { exact: true }).selectOption('Reviewed');
      await expect(timeline.getByText(`${OWNER.email} moved it from New to Reviewed`)).toBeVisible();

      // typed on the keyboard, as people write; the colleague is picked from the suggestions
      const box = timeline.getByLabel('Add a note');
      await box.click();
      await page.keyboard.type(`Strong portfolio, @${handle.slice(0, -2)}`);
      await timeline
        .getByRole('list', { name: 'Mention a colleague' })
        .getByRole('button', { name: `@${handle}` })
        .click();
      await expect(box).toBeFocused();
      await page.keyboard.type('please call her on Monday.');
      await page.keyboard.press('Control+Enter');
      const text = `Strong portfolio, @${handle} please call her on Monday.`;
      await expect(timeline.getByText(text, { exact: true })).toBeVisible();
      await expect(timeline.getByText(`Mentioned: ${recruiter.email}`)).toBeVisible();
      await expect(timeline.getByText(`${OWNER.email} wrote a note`)).toBeVisible();
      await expect(box).toHaveValue('');
      await expectNoAxeViolations(page, { label: `an application's timeline at ${width} px` });
      // nothing wider than the phone
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // an empty note is refused at once, with nothing sent
      await detail.getByRole('button', { name: 'Add note' }).click();
      await expect(timeline.getByRole('alert')).toHaveText('Write a note first.');

      const colleague = await browser.newPage({ viewport: { width, height: 900 } });
      await signIn(colleague, recruiter, address);
      const theirs = colleague.getByRole('dialog', { name: 'Application Details' }).getByRole('region', {
        name: 'Timeline',
      });
      await expect(theirs.getByText(text, { exact: true })).toBeVisible();
      await expect(theirs.getByText(`${OWNER.email} moved it from New to Reviewed`)).toBeVisible();
      // the stored note has ordinary spaces between words
      const stored = await colleague.evaluate(
        async (id) => (await (await fetch(`/api/admin/job-applications/${id}/timeline`)).json()) as unknown,
        row.application_id,
      );
      expect(JSON.stringify(stored)).not.toContain('\u00a0');
      await colleague.close();
    });
  }
});

test.describe('an email to the candidate', () => {
  for (const width of [1280, 390]) {
    test(`is offered when the application is rejected, edited, sent and shown on the timeline (${width} px)`, async ({
      page,
      request,
      baseURL,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const opening = await firstOpening(request);
      const t = tag();
      await applyByApi(request, opening.job_id, `Omar ${t}`, `omar.${t}@example.com`);
      await ownerApi(request, baseURL!);
      const [row] = await (await request.get(`/api/bind-job-applications?search=${t}`)).json();
      await signIn(page, OWNER, `/admin/job_applications?application=${row.application_id}`);
      const detail = page.getByRole('dialog', { name: 'Application Details' });
      const timeline = detail.getByRole('region', { name: 'Timeline' });
      await expect(timeline.getByText('Application received')).toBeVisible();

      await detail.getByLabel('Status', { exact: true }).selectOption('Rejected');
      const mail = timeline.getByRole('form', { name: 'Email to the candidate' });
      await expect(
        mail.getByText('The application is now Rejected. Send the candidate the rejection email?'),
      ).toBeVisible();
      await expect(mail.getByLabel('Template')).toBeFocused();
      await expect(mail.getByLabel('Template')).toHaveValue('reject');
      await expect(mail.getByLabel('Language')).toHaveValue('en');
      await expect(mail.getByLabel('Subject')).toHaveValue('Your application for {{job}}');
      // the suite's server has no HIRING_REPLY_TO: the composer says where a reply would go
      await expect(
        mail.getByText(/The candidate's reply goes nowhere: no hiring reply address/),
      ).toBeVisible();
      await expectNoAxeViolations(page, { label: `the rejection email offered at ${width} px` });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // edited first, on the keyboard
      const body = mail.getByLabel('Email', { exact: true });
      await body.click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('\nWe keep your CV for future openings.');
      await mail.getByRole('button', { name: 'Send email' }).click();
      await expect(page.getByText('Email queued for the candidate')).toBeVisible();
      await expect(
        timeline.getByText(
          `${OWNER.email} emailed the candidate: “Your application for ${opening.job_title}”Queued`,
        ),
      ).toBeVisible();
      await expect(timeline.getByRole('button', { name: 'Email the candidate' })).toBeFocused();

      // a blank email is refused field by field, and nothing is sent
      await timeline.getByRole('button', { name: 'Email the candidate' }).click();
      await mail.getByLabel('Template').selectOption('blank');
      await mail.getByRole('button', { name: 'Send email' }).click();
      await expect(mail.getByText('Write a subject.')).toBeVisible();
      await expect(mail.getByText('Write the email.')).toBeVisible();
      await expect(mail.getByLabel('Subject')).toHaveAttribute('aria-invalid', 'true');
      await mail.getByRole('button', { name: 'Cancel' }).click();
      await expect(mail).toBeHidden();
      const sent = await (
        await request.get(`/api/admin/job-applications/${row.application_id}/timeline`)
      ).json();
      const mails = sent.events.filter((e: { kind: string; mail?: string }) => e.mail === 'candidate-mail');
      expect(mails).toHaveLength(1);
    });
  }
});

test.describe('Messages', () => {
  test('a message sent through /contact is listed, searchable, and can be marked handled', async ({
    page,
  }) => {
    const t = tag();
    await page.goto('/contact');
    // the app starts after the first paint: the form is the app's once the page is hydrated
    await expect(page.locator('#root')).toHaveAttribute('data-hydrated', 'true');
    await page.getByLabel('Full Name').fill(`Priya ${t}`);
    await page.getByLabel('Email Address').fill(`priya.${t}@journal-press.org`);
    await page.getByLabel('Company/Organization').fill('Journal Press');
    await page.getByLabel('Message').fill(`We would like a demo of peer review ${t}.`);
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText(/Your message has been sent|Thank you/).first()).toBeVisible();

    await signIn(page, OWNER, '/admin/messages');
    await expect(page.getByRole('heading', { name: 'Messages', level: 2 })).toBeVisible();
    await page.getByLabel('Search messages').fill(t);
    const item = page.getByRole('listitem', { name: `Priya ${t}` });
    await expect(item).toBeVisible();
    await expect(item).toContainText(`priya.${t}@journal-press.org`);
    await expect(item).toContainText('Journal Press');
    await expect(item).toContainText(`We would like a demo of peer review ${t}.`);
    await expect(item.getByText('New', { exact: true })).toBeVisible();
    await expectNoAxeViolations(page, { label: 'messages' });

    await item.getByRole('button', { name: 'Mark as handled' }).click();
    await expect(page.getByText('Marked as handled', { exact: true }).first()).toBeVisible();
    await expect(item.getByText('Handled', { exact: true })).toBeVisible();
    await page.getByLabel('Show').selectOption('open');
    await expect(page.getByRole('listitem', { name: `Priya ${t}` })).toHaveCount(0);
    await page.getByLabel('Show').selectOption('handled');
    await expect(page.getByRole('listitem', { name: `Priya ${t}` })).toBeVisible();
    // the Handled badge, small text on its pale green, is readable too (checked once the toast,
    // whose colours blend while it fades in and out, is gone)
    await expect(page.getByText('Marked as handled', { exact: true })).toHaveCount(0, { timeout: 10_000 });
    await expectNoAxeViolations(page, { label: 'messages, handled' });
  });

  for (const width of [1280, 390]) {
    test(`a message is assigned to a colleague and answered, and the colleague finds it as theirs (${width} px)`, async ({
      page,
      browser,
      request,
      baseURL,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const t = tag();
      const sent = await request.post('/api/contact-messages', {
        headers: { 'idempotency-key': crypto.randomUUID() },
        data: {
          name: `Aiko ${t}`,
          email: `aiko.${t}@kaisha.example`,
          company: '',
          message: `Do you import JATS ${t}?`,
        },
      });
      expect(sent.status(), await sent.text()).toBe(201);
      const colleague = await makeUser(request, baseURL!, 'owner');
      await ownerApi(request, baseURL!);

      await signIn(page, OWNER, '/admin/messages');
      await page.getByLabel('Search messages').fill(t);
      const item = page.getByRole('listitem', { name: `Aiko ${t}` });
      await expect(item).toBeVisible();
      await item.getByLabel('Assigned to').selectOption({ label: colleague.email });
      await expect(page.getByText(`Assigned to ${colleague.email}`, { exact: true }).first()).toBeVisible();

      await expect(item.getByRole('button', { name: 'Mark as handled' })).toBeVisible();
      await item.getByRole('button', { name: 'Reply' }).click();
      const thread = item.getByRole('region', { name: `Conversation with Aiko ${t}` });
      await expect(thread.getByText('Message received')).toBeVisible();
      await expect(thread.getByText(`${OWNER.email} assigned it to ${colleague.email}`)).toBeVisible();
      const box = thread.getByLabel(`Reply to Aiko ${t}`);
      await box.click();
      await page.keyboard.type('Yes: JATS 1.3 in and out.');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Best, the Manna team');
      await thread.getByRole('button', { name: 'Send reply' }).click();
      await expect(page.getByText('Reply queued for the writer').first()).toBeVisible();
      await expect(thread.getByText(`${OWNER.email} replied to the writer`)).toContainText('Queued');
      await expect(
        thread.getByText('Yes: JATS 1.3 in and out.\nBest, the Manna team', { exact: true }),
      ).toBeVisible();
      await expect(box).toHaveValue('');
      // a message answered is handled, at the version the server now has: Mark open works at once
      await expect(item.getByRole('button', { name: 'Mark as not handled' })).toBeVisible();
      await expectNoAxeViolations(page, { label: `a message answered at ${width} px` });
      await item.getByRole('button', { name: 'Mark as not handled' }).click();
      await expect(item.getByRole('button', { name: 'Mark as handled' })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // the colleague follows the notice's link: that message alone, its conversation open
      const messageId = ((await sent.json()) as { message_id: number }).message_id;
      const theirContext = await browser.newContext({ viewport: { width, height: 900 } });
      const theirs = await theirContext.newPage();
      await signIn(theirs, colleague, `/admin/messages?message=${messageId}`);
      await expect(theirs.getByText('Showing one message, from the link you followed.')).toBeVisible();
      await expect(theirs.getByRole('list', { name: 'Messages' }).locator(':scope > li')).toHaveCount(1);
      await expect(theirs.getByRole('region', { name: `Conversation with Aiko ${t}` })).toBeVisible();
      await expectNoAxeViolations(theirs, { label: `a notice's message at ${width} px` });
      await theirs.getByRole('button', { name: 'Show all messages' }).click();
      await expect(theirs).not.toHaveURL(/message=/);
      await expect(theirs.getByText('Showing one message, from the link you followed.')).toHaveCount(0);
      // the colleague's own messages
      await theirs.getByRole('search').getByLabel('Assigned to').selectOption('me');
      await theirs.getByLabel('Search messages').fill(t);
      const mine = theirs.getByRole('listitem', { name: `Aiko ${t}` });
      await expect(mine).toBeVisible();
      await expect(mine.getByRole('button', { name: 'Replies (1)' })).toBeVisible();
      await theirs.getByRole('search').getByLabel('Assigned to').selectOption('none');
      await expect(theirs.getByRole('listitem', { name: `Aiko ${t}` })).toHaveCount(0);
      await theirContext.close();
    });
  }

  test('a colleague answering one message and deleting another: the open inbox follows without a reload', async ({
    page,
    browser,
    request,
    baseURL,
  }) => {
    const t = tag();
    const write = async (name: string) => {
      const sent = await request.post('/api/contact-messages', {
        headers: { 'idempotency-key': crypto.randomUUID() },
        data: { name: `${name} ${t}`, email: `${t}@revista.example`, company: '', message: `Hola ${t}` },
      });
      expect(sent.status(), await sent.text()).toBe(201);
      return ((await sent.json()) as { message_id: number }).message_id;
    };
    const answered = await write('Lucía');
    const deleted = await write('Sebastián');
    const colleague = await makeUser(request, baseURL!, 'recruiter');

    await signIn(page, OWNER, '/admin/messages');
    await page.getByLabel('Search messages').fill(t);
    await expect(page.getByRole('listitem', { name: `Sebastián ${t}` })).toBeVisible();
    const item = page.getByRole('listitem', { name: `Lucía ${t}` });
    await expect(item.getByRole('button', { name: 'Mark as handled' })).toBeVisible();

    // the colleague, in their own browser, answers Lucía and deletes Sebastián's message
    const theirContext = await browser.newContext();
    try {
      const theirs = await theirContext.newPage();
      await signIn(theirs, colleague, '/admin/messages');
      const origin = new URL(baseURL!).origin;
      const reply = await theirs.request.post(`/api/admin/contact-messages/${answered}/replies`, {
        headers: { origin },
        data: { text: 'Gracias, le escribimos el martes.' },
      });
      expect(reply.status(), await reply.text()).toBe(201);
      const gone = await theirs.request.delete(`/api/admin/contact-messages/${deleted}`, {
        headers: { origin },
      });
      expect(gone.status(), await gone.text()).toBe(200);
    } finally {
      await theirContext.close();
    }

    // the owner's screen, untouched: the answer and the deletion show by themselves
    await expect(page.getByRole('listitem', { name: `Sebastián ${t}` })).toHaveCount(0);
    await expect(item.getByRole('button', { name: 'Replies (1)' })).toBeVisible();
    await expect(item.getByRole('button', { name: 'Mark as not handled' })).toBeVisible();
    // and the version the screen holds is the colleague's: marking it open again is no conflict
    await item.getByRole('button', { name: 'Mark as not handled' }).click();
    await expect(item.getByRole('button', { name: 'Mark as handled' })).toBeVisible();
    await expect(page.getByRole('status').getByText('Marked as not handled', { exact: true })).toBeVisible();
  });

  for (const width of [1280, 390]) {
    test(`a message can be deleted for good, after a question (${width} px)`, async ({ page, request }) => {
      await page.setViewportSize({ width, height: 900 });
      const t = tag();
      const sent = await request.post('/api/contact-messages', {
        headers: { 'idempotency-key': crypto.randomUUID() },
        data: {
          name: `Hana ${t}`,
          email: `hana.${t}@kaisha.example`,
          company: '',
          message: `Please delete what you hold about me ${t}.`,
        },
      });
      expect(sent.status(), await sent.text()).toBe(201);

      await signIn(page, OWNER, '/admin/messages');
      await page.getByLabel('Search messages').fill(t);
      const item = page.getByRole('listitem', { name: `Hana ${t}` });
      await expect(item).toBeVisible();
      await item.getByRole('button', { name: `Delete the message from Hana ${t}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete message' });
      await expect(confirm).toContainText('Delete this message for good?');
      await expect(confirm).toContainText(`hana.${t}@kaisha.example`);
      await expectNoAxeViolations(page, { label: `delete a message at ${width} px` });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toBeHidden();
      await expect(item).toBeVisible();

      await item.getByRole('button', { name: `Delete the message from Hana ${t}` }).click();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByText('Message deleted', { exact: true }).first()).toBeVisible();
      await expect(page.getByRole('listitem', { name: `Hana ${t}` })).toHaveCount(0);
      await expect(page.getByText('No messages found.')).toBeVisible();
      // gone for good: not after a reload either
      await page.reload();
      await page.getByLabel('Search messages').fill(t);
      await expect(page.getByText('No messages found.')).toBeVisible();
    });
  }
});
