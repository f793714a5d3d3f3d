import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestSmtp, type TestSmtp } from '../../server/mail/smtp-testing';
import { request as playwrightRequest } from '@playwright/test';
import { applyByApi, createOpeningByApi, passwordOnlyOwners } from './admin-helpers';
import { test, expect, expectNoAxeViolations } from './fixtures';
import { freePort, OwnServer } from './own-server';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

// Email in the browser, against a real SMTP server on loopback: forgot password -> the mail
// arrives -> its link -> a new password -> sign in; a used or broken link is refused clearly;
// the owner's Mail screen lists what was sent. Its own server, with SMTP_URL set, and webhooks
// allowed to a receiver on loopback (WEBHOOKS_ALLOW_PRIVATE): the server that talks to others.

const DIST = path.resolve(process.env.MANNA_DIST ?? 'dist');
const OWNER = { email: 'owner@mail.example', password: 'mail spec owner passphrase' };
let server: OwnServer;
let smtp: TestSmtp;
let dataDir: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  smtp = await startTestSmtp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-mail-'));
  server = new OwnServer(await freePort(), DIST, dataDir, {
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: OWNER.email,
    ADMIN_PASSWORD: OWNER.password,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Manna <hello@mail.example>',
    // the contact Reply-To is said, the hiring one left unset: the Mail screen tells both
    CONTACT_REPLY_TO: 'desk@mail.example',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
  });
  await server.start();
  const request = await playwrightRequest.newContext();
  await passwordOnlyOwners(request, server.origin, OWNER);
  await request.dispose();
  // the owner was told of the app added and removed (the notices of a change of factors)
  const notices = await smtp.waitFor(2);
  expect(notices.map((m) => [m.recipients, m.parsed.subject])).toEqual([
    [[OWNER.email], 'A sign-in factor of your Manna account changed'],
    [[OWNER.email], 'A sign-in factor of your Manna account changed'],
  ]);
  const texts = notices.map((m) => m.parsed.text ?? '').join('\n');
  expect(texts).toContain('An authenticator app was added');
  expect(texts).toContain('An authenticator app was removed');
  smtp.received.splice(0);
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const linkIn = (text: string) =>
  /http:\/\/127\.0\.0\.1:\d+\/admin\/reset-password\?token=[\w-]+/.exec(text)?.[0];

test.describe('a forgotten password', () => {
  // the browser's own line for the refused reuse of the link (400), which the test does on purpose
  test.use({ allowedConsoleErrors: [/the server responded with a status of 400/] });

  test('is reset through the mailed link, which then works no more', async ({ page }) => {
    await page.goto(`${server.origin}/admin/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await expect(page.getByText('Enter the email address of your account.')).toBeVisible();
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    await expect(page.getByRole('status')).toContainText(`If an account exists for ${OWNER.email}`);
    await expectNoAxeViolations(page);

    const [mail] = await smtp.waitFor(1);
    expect(mail.recipients).toEqual([OWNER.email]);
    expect(mail.parsed.subject).toBe('Choose a new password for Manna');
    const link = linkIn(mail.parsed.text ?? '');
    expect(link?.startsWith(`${server.origin}/admin/reset-password?token=`)).toBe(true);

    await page.goto(link!);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await expectNoAxeViolations(page);
    const chosen = 'a fresh passphrase from the mail';
    await page.getByLabel('New password', { exact: true }).fill(chosen);
    await page.getByLabel('Repeat the new password').fill('a different one');
    await page.getByRole('button', { name: 'Save password' }).click();
    await expect(page.getByText('The passwords do not match.')).toBeVisible();
    await page.getByLabel('Repeat the new password').fill(chosen);
    await page.getByRole('button', { name: 'Save password' }).click();
    await expect(page.getByRole('status')).toHaveText('Your password is set. Sign in with it.');
    await page.getByRole('link', { name: 'Go to sign in' }).click();

    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(chosen);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Current Openings' }).first()).toBeVisible();

    // the same link again: refused, with the way to a new one
    const again = await page.context().newPage();
    await again.goto(link!);
    await again.getByLabel('New password', { exact: true }).fill('yet another passphrase here');
    await again.getByLabel('Repeat the new password').fill('yet another passphrase here');
    await again.getByRole('button', { name: 'Save password' }).click();
    await expect(again.getByRole('alert')).toContainText('This link has expired or has already been used.');
    await expect(again.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
    await expectNoAxeViolations(again);
    await again.close();
    OWNER.password = chosen;
  });

  test('a link without its token says what to do', async ({ page }) => {
    await page.goto(`${server.origin}/admin/reset-password`);
    await expect(page.getByRole('alert')).toHaveText(
      'This address has lost its token. Open the whole link from the email.',
    );
  });
});

test('the owner reads the outbox on the Mail screen and chooses their notices', async ({ page }) => {
  await page.goto(`${server.origin}/admin/login`);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('link', { name: 'Mail' }).click();
  await expect(page.getByRole('heading', { name: 'Mail', level: 2 })).toBeVisible();
  const table = page.getByRole('region', { name: 'Mail outbox' });
  await expect(table).toContainText('Choose a new password for Manna');
  await expect(table).toContainText(OWNER.email);
  await expect(table).toContainText('Sent');
  const replies = page.getByRole('list', { name: 'Where replies go' });
  await expect(replies.getByRole('listitem').first()).toHaveText(
    'Replies to answers from Messages: desk@mail.example',
  );
  await expect(replies.getByRole('listitem').nth(1)).toHaveText(
    'Replies to mails to candidates: nowhere: HIRING_REPLY_TO is not set, so they reach Manna <hello@mail.example>, which nobody reads. Set HIRING_REPLY_TO to a mailbox someone reads.',
  );
  await expectNoAxeViolations(page);

  await page.goto(`${server.origin}/admin/password#notices`);
  const applications = page.getByLabel('New job applications');
  await expect(applications).toHaveValue('each');
  await expectNoAxeViolations(page);
  await applications.selectOption('digest');
  await page.getByRole('button', { name: 'Save notices' }).click();
  await expect(page.getByText('Your email notices are saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('New job applications')).toHaveValue('digest');
});

test('an owner invites a colleague, who chooses a password through the mailed link', async ({
  page,
  browser,
}) => {
  await page.goto(`${server.origin}/admin/login`);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('link', { name: 'Users & Roles' }).click();
  await page.locator('#new-user-email').fill('colleague@mail.example');
  await page.locator('#new-user-role').selectOption('editor');
  const before = smtp.received.length;
  await page.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByText('An invitation was emailed to colleague@mail.example.')).toBeVisible();
  // no one-time password to hand over
  await expect(page.getByTestId('one-time-password')).toHaveCount(0);

  const mails = await smtp.waitFor(before + 1);
  const invitation = mails.find((m) => m.recipients.includes('colleague@mail.example'))!;
  expect(invitation.parsed.subject).toBe('Your account in the Manna back office');
  const link = /http:\/\/127\.0\.0\.1:\d+\/admin\/reset-password\?token=[\w-]+&invite=1/.exec(
    invitation.parsed.text ?? '',
  )?.[0];
  expect(link).toBeTruthy();

  const colleague = await browser.newPage();
  await colleague.goto(link!);
  await expect(colleague.getByRole('heading', { name: 'Welcome: choose your password' })).toBeVisible();
  await colleague.getByLabel('New password', { exact: true }).fill('the colleague chose this');
  await colleague.getByLabel('Repeat the new password').fill('the colleague chose this');
  await colleague.getByRole('button', { name: 'Save password' }).click();
  await colleague.getByRole('link', { name: 'Go to sign in' }).click();
  await colleague.getByLabel('Email').fill('colleague@mail.example');
  await colleague.getByLabel('Password').fill('the colleague chose this');
  await colleague.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(colleague.getByRole('heading', { name: 'Blog', level: 1 })).toBeVisible();
  await colleague.close();
});

test('a colleague mentioned in a note on an application gets a mail that opens it', async ({ page }) => {
  const request = await playwrightRequest.newContext({ baseURL: server.origin });
  const origin = { origin: server.origin };
  expect((await request.post('/api/auth/login', { headers: origin, data: OWNER })).status()).toBe(200);
  const recruiter = 'asha.recruiter@mail.example';
  expect(
    (
      await request.post('/api/admin/users', {
        headers: origin,
        data: { email: recruiter, role: 'recruiter' },
      })
    ).status(),
  ).toBe(200);
  const jobId = await createOpeningByApi(
    { post: (url, data) => request.post(url, { headers: origin, data: data as object }) },
    request,
    'Managing Editor',
  );
  await applyByApi(request, jobId, 'Meera Nair', 'meera.nair@example.com');
  const [row] = await (await request.get('/api/bind-job-applications?search=Meera')).json();
  await request.dispose();

  await page.goto(
    `${server.origin}/admin/login?next=/admin/job_applications?application=${row.application_id}`,
  );
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const timeline = page
    .getByRole('dialog', { name: 'Application Details' })
    .getByRole('region', { name: 'Timeline' });
  await timeline.getByLabel('Add a note').click();
  await page.keyboard.type('Excellent references. @asha.recruiter can you schedule a call?');
  await timeline.getByRole('button', { name: 'Add note' }).click();
  await expect(timeline.getByText('Mentioned: asha.recruiter@mail.example')).toBeVisible();

  const subject = `${OWNER.email} mentioned you on an application for Managing Editor`;
  await expect.poll(() => smtp.to(recruiter).some((m) => m.parsed.subject === subject)).toBe(true);
  const mention = smtp.to(recruiter).find((m) => m.parsed.subject === subject)!;
  const text = mention.parsed.text ?? '';
  expect(text).toContain('Meera Nair');
  expect(text).toContain(`${server.origin}/admin/job_applications?application=${row.application_id}`);
  // the note stays in the back office
  expect(text).not.toContain('Excellent references');
  // the candidate's acknowledgment shows as sent on the timeline once the mail server took it
  await expect(async () => {
    await page.reload();
    await expect(timeline.getByText(/^Acknowledgment to the candidate: .*Sent$/)).toBeVisible({
      timeout: 3_000,
    });
  }).toPass({ timeout: 20_000 });
});

test('the owner adds a webhook, sends a test event a receiver verifies, and sees it delivered', async ({
  page,
}) => {
  // a receiver on loopback that answers 200 and keeps what it got
  const got: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/manna`;
  try {
    await page.goto(`${server.origin}/admin/login`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByText('No endpoints yet.')).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
    // nothing chosen: the address is asked for first, with the keyboard's focus on it
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(dialog.getByText('Enter the address to send events to.')).toBeVisible();
    await expect(dialog.getByLabel('Address', { exact: true })).toBeFocused();
    await page.keyboard.type(url);
    await dialog.getByLabel('Description').fill('Zapier: new posts to Slack');
    await dialog.getByLabel('Post published').check();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('The endpoint was added.')).toBeVisible();
    const endpoint = page.getByRole('listitem').filter({ hasText: url });
    await expect(endpoint).toContainText('Zapier: new posts to Slack');
    await expect(endpoint).toContainText('Events: Post published');

    await endpoint.getByText('Signing secret').click();
    const secret = (await endpoint.locator('code').textContent())!;
    expect(secret).toMatch(/^whsec_/);

    await endpoint.getByRole('button', { name: 'Send a test event' }).click();
    const deliveries = page.getByRole('region', { name: `Deliveries to ${url}` });
    // followed by the screen until it is sent: no reload
    await expect(deliveries).toContainText('Test event');
    await expect(deliveries).toContainText('Sent');
    await expect(deliveries).toContainText('HTTP 200');
    expect(got).toHaveLength(1);
    const event = new Webhook(secret).verify(got[0]!.body, got[0]!.headers as Record<string, string>);
    expect(event).toMatchObject({ type: 'webhook.test', data: { message: 'A test event from Manna.' } });
    await expectNoAxeViolations(page);

    await deliveries.getByRole('button', { name: /^Send Test event of .* again$/ }).click();
    await expect(page.getByText('The delivery is being sent again.')).toBeVisible();
    await expect.poll(() => got.length).toBe(2);
    expect(got[1]!.headers['webhook-id']).toBe(got[0]!.headers['webhook-id']);
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});
