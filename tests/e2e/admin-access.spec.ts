import { test, expect, expectNoAxeViolations } from './fixtures';
import { OWNER, makeUser, ownerApi, signIn } from './admin-helpers';

test.describe('admin roles and layout', () => {
  test('the installed back office reopens at the screen its user last had open; a browser tab at /admin does not', async ({
    page,
    context,
  }) => {
    await signIn(page, OWNER, '/admin/job_applications?status=New');
    await expect(page).toHaveURL(/\/admin\/job_applications\?status=New$/);
    // a tab of the browser: /admin is the first screen, as always
    await page.goto('/admin/');
    await expect(page.getByRole('heading', { level: 1, name: 'Current Openings' })).toBeVisible();
    await page.goto('/admin/job_applications?status=New');
    await expect(page.getByRole('heading', { level: 1, name: 'Job Applications' })).toBeVisible();
    // the installed app's window (display-mode: standalone) starts at /admin/ and goes back there
    const app = await context.newPage();
    await app.addInitScript(() => {
      const real = window.matchMedia.bind(window);
      window.matchMedia = (query: string) =>
        query === '(display-mode: standalone)'
          ? ({ matches: true, media: query } as MediaQueryList)
          : real(query);
    });
    await app.goto('/admin/');
    await expect(app).toHaveURL(/\/admin\/job_applications\?status=New$/);
    await expect(app.getByRole('heading', { level: 1, name: 'Job Applications' })).toBeVisible();
    await app.close();
  });

  test('a Recruiter sees openings and applications but not Blog, Users & Roles or Activity', async ({
    page,
    request,
    baseURL,
  }) => {
    const recruiter = await makeUser(request, baseURL!, 'recruiter');
    await signIn(page, recruiter);
    const nav = page.getByRole('navigation', { name: 'Admin Panel' });
    await expect(nav.getByRole('link', { name: 'Current Openings' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Job Applications' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Blog' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Users & Roles' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Activity' })).toHaveCount(0);
    await page.goto('/admin/blog');
    await expect(page.getByRole('heading', { name: 'No access' })).toBeVisible();
  });

  test('an Editor cannot open /admin/books; the admin index opens Blog for them', async ({
    page,
    request,
    baseURL,
  }) => {
    const editor = await makeUser(request, baseURL!, 'editor');
    await signIn(page, editor, '/admin');
    await expect(page).toHaveURL(/\/admin\/blog$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Admin Panel' });
    await expect(nav.getByRole('link', { name: 'Current Openings' })).toHaveCount(0);
    await page.goto('/admin/books');
    await expect(page.getByRole('heading', { name: 'No access' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Job' })).toHaveCount(0);
    await expectNoAxeViolations(page);
    // the API refuses too
    const res = await page.request.post('/api/manage-job-openings', {
      headers: { origin: new URL(baseURL!).origin },
      data: { mode: 3, job_id: 1 },
    });
    expect(res.status()).toBe(403);
  });

  test('the sidebar collapses to 4rem and expands to 16rem; the header shows the current label', async ({
    page,
  }) => {
    await signIn(page);
    const sidebar = page.getByRole('complementary', { name: 'Admin Panel' });
    await expect(page.getByRole('heading', { level: 1, name: 'Current Openings' })).toBeVisible();
    expect((await sidebar.boundingBox())!.width).toBe(256);
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect.poll(async () => (await sidebar.boundingBox())!.width).toBe(64);
    await expect(page.getByRole('button', { name: 'Expand sidebar' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    // links keep their names for assistive technology while only icons show
    await page.getByRole('link', { name: 'Activity' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await expect.poll(async () => (await sidebar.boundingBox())!.width).toBe(256);
    // a screen read far down: the next screen opens at its top
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Users & Roles' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Users & Roles' })).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.goto('/admin/contact');
    await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
  });

  test('every admin screen is axe clean', async ({ page }) => {
    test.setTimeout(150_000); // eight axe runs
    await signIn(page);
    for (const path of [
      '/admin/books',
      '/admin/users',
      '/admin/activity',
      '/admin/password',
      '/admin/blog',
      '/admin/job_applications',
      '/admin/messages',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('complementary', { name: 'Admin Panel' })).toBeVisible();
      await expect(page.getByRole('main').getByRole('status')).toHaveCount(0, { timeout: 10_000 });
      await expectNoAxeViolations(page);
    }
    await page.goto('/admin/books');
    await page.getByRole('button', { name: 'Add Job' }).click();
    await expect(page.locator('#job-responsibility-editor')).toBeVisible();
    await expectNoAxeViolations(page, { label: 'job form' });
  });

  test('an owner creates a user with a one-time password, who must then choose their own', async ({
    page,
    browser,
  }) => {
    // creating a user needs a proof at most 5 minutes old: a sign-in of its own, not the suite's
    await signIn(page, undefined, '/admin/users', { fresh: true });
    const email = `new.${Date.now()}@e2e.example`;
    await page.locator('#new-user-email').fill(email);
    await page.locator('#new-user-role').selectOption('editor');
    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = page.getByRole('dialog', { name: 'One-time password' });
    const oneTime = (await dialog.getByTestId('one-time-password').textContent())!;
    expect(oneTime).toMatch(/^[A-Za-z0-9]{20}$/);
    await expectNoAxeViolations(page, { label: 'one-time password' });
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('One-time password');

    const context = await browser.newContext();
    const other = await context.newPage();
    await signIn(other, { email, password: oneTime }, '/admin');
    await expect(other).toHaveURL(/\/admin\/password$/);
    await other.getByLabel('Current password').fill(oneTime);
    await other.getByLabel('New password', { exact: true }).fill('password12345');
    await other.getByLabel('Repeat the new password').fill('password12345');
    await other.getByRole('button', { name: 'Save password' }).click();
    await expect(other.getByRole('alert')).toContainText('too common');
    await other.getByLabel('New password', { exact: true }).fill('quiet harbour lantern');
    await other.getByLabel('Repeat the new password').fill('quiet harbour lantern');
    await other.getByRole('button', { name: 'Save password' }).click();
    await expect(other.getByText('Success: Your password has been changed.')).toBeVisible();
    await other.goto('/admin');
    await expect(other).toHaveURL(/\/admin\/blog$/);
    await context.close();

    await page.goto('/admin/activity');
    await expect(page.getByRole('table')).toContainText(email);
  });

  test('the activity screen says whether the server takes backups', async ({ page }) => {
    await signIn(page, OWNER, '/admin/activity');
    // the e2e server runs without BACKUP_DIR: the screen says so and how to set it up
    await expect(page.getByTestId('backup-status')).toContainText(
      'Backups are not set up on this server: set BACKUP_DIR to take one every day, or run npm run backup.',
    );
    // nor SMTP_URL: the outbox keeps what the other specs' forms queued
    await expect(page.getByTestId('mail-status')).toContainText('Email is not set up (SMTP_URL):');
    await expectNoAxeViolations(page, { label: '/admin/activity with the backup status' });
  });

  test('a user manager without the owner role sees no way to change the owner or grant more than they hold', async ({
    page,
    request,
    baseURL,
  }) => {
    const api = await ownerApi(request, baseURL!);
    const roleName = `Managers ${Date.now()}`;
    expect(
      (await api.post('/api/admin/roles', { name: roleName, permissions: ['users.manage'] })).status(),
    ).toBe(200);
    const manager = {
      email: `manager.${Date.now()}@e2e.example`,
      password: 'manager passphrase for e2e tests',
    };
    expect((await api.post('/api/admin/users', { ...manager, role: roleName })).status()).toBe(200);

    await signIn(page, manager, '/admin/users');
    const ownerRow = page.getByRole('row', { name: new RegExp(OWNER.email) });
    await expect(ownerRow).toContainText('No changes you may make');
    await expect(ownerRow.getByRole('button')).toHaveCount(0);
    await expect(ownerRow.locator('select')).toHaveCount(0);
    // the new user's roles are only those within what the manager holds
    const options = await page.locator('#new-user-role option').allTextContents();
    expect(options).toContain(roleName);
    expect(options).not.toContain('owner');
    expect(options).not.toContain('editor');
    // a new role can only be given what the manager holds
    const newRole = page.getByRole('group', { name: 'New Role' });
    await expect(newRole.getByRole('checkbox', { name: 'Manage blog posts' })).toBeDisabled();
    await expect(newRole.getByRole('checkbox', { name: 'Manage users and roles' })).toBeEnabled();
    await expectNoAxeViolations(page, { label: 'users as a user manager' });
  });
});

test.describe('two managers on one role', () => {
  test.use({ allowedConsoleErrors: [/status of 409/] });

  test("a role's editor meets a colleague's change: the same permission field shows theirs beside mine, and keep mine saves", async ({
    page,
    request,
    baseURL,
  }) => {
    const origin = new URL(baseURL!).origin;
    const api = await ownerApi(request, baseURL!);
    const name = `Desk ${Date.now().toString(36)}`;
    const created = await api.post('/api/admin/roles', { name, permissions: ['blog.manage'] });
    expect(created.status()).toBe(200);
    const { role } = (await created.json()) as { role: { role_id: number; version: number } };

    await page.setViewportSize({ width: 390, height: 844 });
    // editing a role needs a proof at most 5 minutes old: a sign-in of its own, not the suite's
    await signIn(page, OWNER, '/admin/users', { fresh: true });
    const editor = page.getByRole('group', { name: new RegExp(`^${name}`) });
    await expect(editor).toBeVisible();
    // a colleague gives the role the activity log meanwhile
    const theirs = await request.patch(`/api/admin/roles/${role.role_id}`, {
      headers: { origin, 'if-match': `"${role.version}"` },
      data: { name, permissions: ['blog.manage', 'audit.read'] },
    });
    expect(theirs.status()).toBe(200);
    // I, on the screen as it was, give it job openings instead
    await editor.getByRole('checkbox', { name: 'Manage job openings' }).check();
    await editor.getByRole('button', { name: 'Save role' }).click();
    const conflict = page.getByRole('alert').filter({ hasText: 'while you were editing' });
    await expect(conflict).toContainText(`${OWNER.email} changed this at`);
    await expect(conflict).toContainText('Manage blog posts, Read the activity log');
    await expect(conflict).toContainText('Manage blog posts, Manage job openings');
    await expect(conflict.getByRole('button', { name: 'Keep my changes' })).toBeFocused();
    await expectNoAxeViolations(page, { label: 'role conflict (phone)' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await conflict.getByRole('button', { name: 'Keep my changes' }).click();
    await expect(conflict).toHaveCount(0);
    await expect
      .poll(async () => {
        const roles = (await (await request.get('/api/admin/roles')).json()) as {
          role_id: number;
          permissions: string[];
        }[];
        return roles.find((r) => r.role_id === role.role_id)?.permissions.sort();
      })
      .toEqual(['blog.manage', 'jobs.manage']);
  });
});

test.describe('the back office on a phone', () => {
  test('Users & Roles and Activity fit a 390-px screen: each row is a card, nothing hides to the right', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, OWNER, '/admin/users');
    const table = page.getByRole('region', { name: 'Users and their roles' }).locator('table');
    await expect(table.getByRole('rowheader', { name: /owner@e2e\.example/ })).toBeVisible();
    for (const label of ['Role', 'Status', 'Last sign-in', 'Actions'])
      await expect(table.locator(`td[data-label="${label}"]`).first()).toBeVisible();
    const fits = () =>
      page.evaluate(() => {
        const region = document.querySelector('[role="region"]')!;
        return {
          page: document.documentElement.scrollWidth <= window.innerWidth,
          table: region.scrollWidth <= region.clientWidth,
        };
      });
    expect(await fits()).toEqual({ page: true, table: true });
    await expectNoAxeViolations(page, { label: 'users at 390 px' });

    await page.goto('/admin/activity');
    await expect(page.locator('table tbody tr').first()).toBeVisible();
    for (const label of ['When', 'Who', 'Action', 'Record'])
      await expect(page.locator(`table td[data-label="${label}"]`).first()).toBeVisible();
    expect(await fits()).toEqual({ page: true, table: true });
    await expectNoAxeViolations(page, { label: 'activity at 390 px' });
  });
});
