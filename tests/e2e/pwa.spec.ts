import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { chromiumArgs, chromiumExecutable } from '../../playwright.config';
import { test, expect, expectNoAxeViolations } from './fixtures';
import { fillPlace, makeUser, signIn } from './admin-helpers';
import { freePort, OwnServer } from './own-server';
import { fillApplication } from './apply-helpers';
import { copyKept } from './offline-helpers';

// Installable and offline. This spec runs its OWN server process (from the same build,
// on a free port, with its own data folder) so that it can stop and start it: "offline" here is
// the real server gone, not a mocked route. Service workers are allowed in every test.

const ROOT = path.resolve('.');
const DIST = path.resolve(process.env.MANNA_DIST ?? 'dist');

test.use({ serviceWorkers: 'allow' });
// Each worker that runs tests of this file starts its own server (beforeAll), so tests stay
// independent and the file's tests share both workers (it is the longest file of the suite).
test.describe.configure({ mode: 'parallel' });
test.setTimeout(120_000);

// ---------------------------------------------------------------------------------------------
// The server this spec owns
// ---------------------------------------------------------------------------------------------

let server: OwnServer;
let dataDir: string;

test.beforeAll(async () => {
  if (!fs.existsSync(path.join(DIST, 'client', 'sw.js')))
    throw new Error(`No service worker in ${DIST}: build first`);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-pwa-e2e-'));
  server = new OwnServer(await freePort(), DIST, dataDir);
  await server.start();
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test.afterEach(async () => {
  await server.start(); // a failed test may have left it stopped
});

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** Opens `url` and waits until the service worker controls the page and the PWA part runs. */
async function visitOnline(page: Page, url: string) {
  await page.goto(`${server.origin}${url}`);
  await expect(page.locator('#root')).toHaveAttribute('data-hydrated', 'true');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
  await expect(page.getByTestId('connection-status')).toBeVisible();
}

/**
 * Marks the offline prefetch (src/pwa/prefetch.ts) as just done on this device, for tests about
 * something else: its background requests, cut short when a test stops the server, would be
 * logged by Chromium as failed resources.
 */
async function skipPrefetch(context: BrowserContext) {
  await context.addInitScript(() => {
    try {
      localStorage.setItem('manna-offline-prefetch-at', new Date().toISOString());
    } catch {
      // about:blank and other opaque origins have no storage
    }
  });
}

const PREFETCH = 'offline data without a prior visit';
// every other test starts with the prefetch marked as done (see skipPrefetch)
test.beforeEach(async ({ context }, testInfo) => {
  if (!testInfo.titlePath.includes(PREFETCH)) await skipPrefetch(context);
});

async function hydrated(page: Page) {
  await expect(page.locator('#root')).toHaveAttribute('data-hydrated', 'true');
}

const uniqueEmail = (tag: string) =>
  `pwa.${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;

/** Until `check` holds, polling the database (the send queue works in the background). */
async function eventually(check: () => boolean, timeout = 60_000) {
  await expect.poll(check, { timeout, intervals: [250, 500, 1000] }).toBe(true);
}

/**
 * Until nothing is left to send on this device: the send queue's IndexedDB store is empty and no
 * page or worker holds or waits for its Web Lock. After that no sender can send anything again,
 * so a count taken then is final (no fixed sleep needed).
 */
async function queueSettled(page: Page) {
  await page.waitForFunction(
    async () => {
      const locks = await navigator.locks.query();
      const busy = [...(locks.held ?? []), ...(locks.pending ?? [])].some(
        (l) => l.name === 'manna-outbox-send',
      );
      if (busy) return false;
      const names = (await indexedDB.databases()).map((d) => d.name);
      if (!names.includes('manna-outbox')) return true;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('manna-outbox');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      try {
        if (!db.objectStoreNames.contains('items')) return true;
        const count = await new Promise<number>((resolve, reject) => {
          const req = db.transaction('items').objectStore('items').count();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        return count === 0;
      } finally {
        db.close();
      }
    },
    null,
    { timeout: 60_000, polling: 250 },
  );
}

/** What the browser does when the connection is back: the worker's Background Sync, now. */
async function dispatchSync(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((r) => r.scopeURL.startsWith(server.origin) && !r.isDeleted);
      if (mine) resolve(mine.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.dispatchSyncEvent', {
    origin: server.origin,
    registrationId: await registrationId,
    tag: 'manna-outbox',
    lastChance: false,
  });
}

async function cacheUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    return urls;
  });
}

// The browser's own line for each request that finds no server (the pages' API calls offline).
const NETWORK_ERRORS = [
  /Failed to load resource: (net::ERR_(CONNECTION_REFUSED|INTERNET_DISCONNECTED|FAILED)|the server responded with a status of 503)/,
];

// ---------------------------------------------------------------------------------------------
// Install and read offline
// ---------------------------------------------------------------------------------------------

test.describe('reading without the server', () => {
  test.use({ allowedConsoleErrors: NETWORK_ERRORS });

  test('after one online visit every public page, the blog, a post, pricing and careers open with their content', async ({
    page,
    request,
  }) => {
    const routes = Object.keys(
      JSON.parse(fs.readFileSync(path.join(DIST, 'pages', 'manifest.json'), 'utf8')).routes as Record<
        string,
        string
      >,
    );
    expect(routes.length).toBeGreaterThanOrEqual(18);
    const posts = (await (
      await request.get(`${server.origin}/api/bind-company-blog?blogid=0&search=&page_number=1&page_size=10`)
    ).json()) as {
      title: string;
      slug: string;
    }[];
    expect(posts.length).toBeGreaterThan(0);
    const post = posts[0];

    // One online visit: the home page installs the service worker ...
    await visitOnline(page, '/');
    await expect(page.getByText('Ready to work offline')).toBeVisible();
    // ... and the pages with data keep their last copy as they are read.
    // (a copy is written after its call answers: wait for it before leaving the page)
    await page.goto(`${server.origin}/pricing`);
    await expect(page.getByText('Most Popular')).toBeVisible();
    await expect.poll(() => copyKept(page, 'pricing', 'plans')).toBe(true);
    await page.goto(`${server.origin}/careers`);
    await expect(page.getByRole('article')).toHaveCount(5);
    await expect.poll(() => copyKept(page, 'jobs', 'openings')).toBe(true);
    const jobAddress = await page
      .getByRole('article', { name: 'Senior Full-Stack Engineer' })
      .getByRole('link')
      .getAttribute('href');
    await page.goto(`${server.origin}${jobAddress}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Senior Full-Stack Engineer' })).toBeVisible();
    await page.goto(`${server.origin}/blog`);
    await expect(page.getByText(post.title).first()).toBeVisible();
    await expect.poll(() => copyKept(page, 'blog', 'firstPage')).toBe(true);
    await page.goto(`${server.origin}/blog/${post.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: post.title })).toBeVisible();
    await expect.poll(() => copyKept(page, 'blog', `post-${post.slug}`)).toBe(true);

    await server.stop();
    // Pricing answers may sit in the HTTP cache for 5 minutes; what counts here is the device's own copy.
    await (await page.context().newCDPSession(page)).send('Network.clearBrowserCache');

    for (const route of routes) {
      const response = await page.goto(`${server.origin}${route}`);
      expect(response?.status(), route).toBe(200);
      expect(new URL(page.url()).pathname, `${route} is not the offline page`).toBe(route);
      await hydrated(page);
      await expect(page.getByRole('heading', { level: 1 }).first(), route).toBeVisible();
      await expect(page.getByTestId('connection-status')).toBeVisible();
    }

    await page.goto(`${server.origin}/pricing`);
    await expect(page.getByText('Most Popular')).toBeVisible();
    await expect(page.getByText(/Showing saved copy from/)).toBeVisible();

    await page.goto(`${server.origin}/careers`);
    await expect(page.getByRole('article')).toHaveCount(5);
    await expect(page.getByText(/Showing saved copy from/)).toBeVisible();
    await expect(page.getByRole('article').first().getByRole('button', { name: 'Apply' })).toBeVisible();
    // an opening never opened on its own page but shown in the list: in-app navigation finds its copy
    await hydrated(page);
    await page.getByRole('link', { name: 'Technical Writer' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Technical Writer' })).toBeVisible();
    await expect(page.getByText(/Showing saved copy from/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Apply' })).toBeVisible();
    // an opening read on its page: the page the worker kept
    await page.goto(`${server.origin}${jobAddress}`);
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Senior Full-Stack Engineer' })).toBeVisible();

    await page.goto(`${server.origin}/blog`);
    await expect(page.getByText(post.title).first()).toBeVisible();
    await expect(page.getByText(/Showing saved copy from/)).toBeVisible();

    await page.goto(`${server.origin}/blog/${post.slug}`);
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: post.title })).toBeVisible();

    // a post never opened on its own page but shown in the list: in-app navigation finds its copy
    const other = posts[1];
    await page.goto(`${server.origin}/blog`);
    await hydrated(page);
    await page.getByRole('link', { name: other.title }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: other.title })).toBeVisible();
    await expect(page.getByText(/Showing saved copy from/)).toBeVisible();
  });

  test('a page never visited opens the offline page, which says what is still available', async ({
    page,
  }) => {
    await visitOnline(page, '/');
    await server.stop();
    await page.goto(`${server.origin}/blog/a-post-never-read`);
    await expect(page).toHaveURL(/\/offline\?from=%2Fblog%2Fa-post-never-read$/);
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText("You're offline");
    await expect(page.getByText('You tried to open /blog/a-post-never-read.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Still available without a connection' })).toBeVisible();
    for (const name of ['Pricing', 'Blog', 'Careers', 'Contact', 'Privacy Policy']) {
      await expect(page.getByRole('main').getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expectNoAxeViolations(page);
    // the links work offline (in-app navigation to a precached page)
    await page.getByRole('main').getByRole('link', { name: 'Pricing', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Simple, Transparent Pricing');
  });

  test('offline, a page comes in the language of its address: kept in it, or drawn in it', async ({
    page,
  }) => {
    await visitOnline(page, '/');
    await page.goto(`${server.origin}/ml/about`);
    const aboutMl = (await page.getByRole('heading', { level: 1 }).first().textContent()) ?? '';
    expect(aboutMl).not.toContain('About');
    await server.stop();
    // kept in Malayalam when it was read
    await page.goto(`${server.origin}/ml/about`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ml');
    await expect(page.getByRole('heading', { level: 1 }).first()).toHaveText(aboutMl);
    // the English page is still the English one
    await page.goto(`${server.origin}/about`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    // never read in Malayalam: the precached English copy is drawn in Malayalam
    await page.goto(`${server.origin}/ml/pricing`);
    await hydrated(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ml');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('ലളിതവും സുതാര്യവുമായ വിലനിർണ്ണയം');
  });

  test('/api is never answered with a page, and nothing private is kept', async ({ page }) => {
    await visitOnline(page, '/');
    await page.goto(`${server.origin}/careers`);
    await expect(page.getByRole('article')).toHaveCount(5);
    const urls = await cacheUrls(page);
    expect(urls.length).toBeGreaterThan(50);
    expect(urls.filter((u) => /\/api\/|\/media\/private\/|[?&]sig=/.test(u))).toEqual([]);

    await server.stop();
    const answer = await page.evaluate(() =>
      fetch('/api/bind-job-openings').then(
        (r) => `HTTP ${r.status} ${r.headers.get('content-type')}`,
        () => 'no answer',
      ),
    );
    expect(answer).toBe('no answer');
    await expect(page.goto(`${server.origin}/api/health`)).rejects.toThrow(/ERR_CONNECTION_REFUSED/);
  });
});

// ---------------------------------------------------------------------------------------------
// The send queue: exactly once
// ---------------------------------------------------------------------------------------------

async function fillContact(page: Page, name: string, email: string) {
  const form = page.getByRole('form', { name: 'Get in Touch' });
  await form.getByLabel('Full Name', { exact: false }).fill(name);
  await form.getByLabel('Email Address', { exact: false }).fill(email);
  await form.getByLabel('Message', { exact: false }).fill('Please call me back about the review workflow.');
  await form.getByRole('button', { name: 'Send Message' }).click();
}

/** Applies to the first opening on /careers with a CV; answers the opening's title. */
async function applyToFirstOpening(page: Page, email: string): Promise<string> {
  const card = page.getByRole('article').first();
  const title = (await card.getByRole('heading').first().textContent())!.trim();
  await card.getByRole('button', { name: 'Apply' }).click();
  const dialog = page.getByRole('dialog', { name: `Apply for: ${title}` });
  await fillApplication(page, email);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();
  return title;
}

async function goOffline(context: BrowserContext) {
  await server.stop();
  await context.setOffline(true);
}

async function reconnect(context: BrowserContext) {
  await server.start();
  await context.setOffline(false);
}

test.describe(PREFETCH, () => {
  test.use({ allowedConsoleErrors: NETWORK_ERRORS });
  test('after visiting only the home page, pricing, careers, the blog and a post can be read offline', async ({
    page,
    request,
  }) => {
    const posts = (await (
      await request.get(`${server.origin}/api/bind-company-blog?blogid=0&search=&page_number=1&page_size=10`)
    ).json()) as { title: string }[];
    // what the background copies cost: every API answer and image the page receives after the visit
    const answers: Promise<{ path: string; bytes: number }>[] = [];
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/media/'))
        answers.push(
          res
            .body()
            .then((b) => ({ path: url.pathname, bytes: b.length }))
            .catch(() => ({ path: url.pathname, bytes: 0 })),
        );
    });
    await visitOnline(page, '/');
    // the service worker is ready: the page keeps the data of the other pages in the background
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('manna-offline-prefetch-at')), { timeout: 30_000 })
      .not.toBeNull();
    const fetched = await Promise.all(answers);
    const bytes = fetched.reduce((n, a) => n + a.bytes, 0);
    console.log(
      `offline prefetch: ${fetched.length} answers, ${(bytes / 1000).toFixed(1)} kB (${[...new Set(fetched.map((a) => a.path.replace(/^\/media\/.*/, '/media/...')))].join(', ')})`,
    );
    expect(fetched.map((a) => a.path)).toEqual(
      expect.arrayContaining(['/api/BindPlanDetails', '/api/bind-job-openings', '/api/bind-company-blog']),
    );

    await server.stop();
    await (await page.context().newCDPSession(page)).send('Network.clearBrowserCache');

    await page.goto(`${server.origin}/pricing`);
    await expect(page.getByText('Most Popular')).toBeVisible();
    await expect(page.getByText(/Showing saved copy from/)).toBeVisible();

    await page.goto(`${server.origin}/careers`);
    await expect(page.getByRole('article')).toHaveCount(5);
    await expect(page.getByText(/Showing saved copy from/)).toBeVisible();

    await page.goto(`${server.origin}/blog`);
    await hydrated(page);
    await expect(page.getByText(posts[0].title).first()).toBeVisible();
    await page.getByRole('link', { name: posts[0].title }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: posts[0].title })).toBeVisible();
    await expect(page.getByText(/Showing saved copy from/)).toBeVisible();
    // its cover image was kept too (the worker's image cache): it shows, not a broken image
    const cover = page.locator('main img').first();
    await expect(cover).toBeVisible();
    await expect
      .poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
  });
});

test.describe('sending without a connection', () => {
  test.use({ allowedConsoleErrors: NETWORK_ERRORS });

  test('a contact message waits on the device and arrives once when the connection returns', async ({
    page,
    context,
  }) => {
    const email = uniqueEmail('contact');
    const postsBefore = server.posts('/api/contact-messages');
    await visitOnline(page, '/contact');
    await goOffline(context);
    await expect(page.getByTestId('connection-status')).toHaveText('Offline');
    await fillContact(page, 'Asha Offline', email);
    const outbox = page.getByTestId('outbox-contact');
    await expect(outbox.getByRole('heading', { name: 'Waiting to send' })).toBeVisible();
    await expect(outbox.getByText('Message from Asha Offline')).toBeVisible();
    await expect(
      page.getByRole('form', { name: 'Get in Touch' }).getByLabel('Full Name', { exact: false }),
    ).toHaveValue('');
    expect(server.count('contact_message', email)).toBe(0);
    await expectNoAxeViolations(page, { include: ['[data-testid="outbox-contact"]', 'header'] });

    await reconnect(context);
    await eventually(() => server.count('contact_message', email) === 1);
    await expect(outbox).toHaveCount(0);
    await expect(page.getByText(/Your message has been sent/)).toBeVisible();
    // a later start sends nothing again: nothing is left on the device to send
    await page.reload();
    await hydrated(page);
    await queueSettled(page);
    expect(server.count('contact_message', email)).toBe(1);
    expect(server.posts('/api/contact-messages') - postsBefore).toBe(1);
  });

  test('a contact message survives a reload before the connection returns, and arrives once', async ({
    page,
    context,
  }) => {
    const email = uniqueEmail('contact-reload');
    const postsBefore = server.posts('/api/contact-messages');
    await visitOnline(page, '/contact');
    await goOffline(context);
    await fillContact(page, 'Asha Reload', email);
    await expect(page.getByTestId('outbox-contact').getByText('Message from Asha Reload')).toBeVisible();

    await page.reload(); // offline: the page comes from the service worker, the entry from IndexedDB
    await hydrated(page);
    await expect(page.getByTestId('outbox-contact').getByText('Message from Asha Reload')).toBeVisible();
    await expect(page.getByTestId('outbox-contact').getByText('Waiting to send').first()).toBeVisible();

    await reconnect(context);
    await eventually(() => server.count('contact_message', email) === 1);
    await queueSettled(page);
    expect(server.count('contact_message', email)).toBe(1);
    expect(server.posts('/api/contact-messages') - postsBefore).toBe(1);
  });

  test('with every page of the site closed, Background Sync in the service worker sends it, once', async ({
    page,
    context,
  }) => {
    const email = uniqueEmail('contact-sync');
    const postsBefore = server.posts('/api/contact-messages');
    await visitOnline(page, '/contact');
    await goOffline(context);
    await fillContact(page, 'Asha Sync', email);
    await expect(page.getByTestId('outbox-contact').getByText('Message from Asha Sync')).toBeVisible();
    // No page of the site stays open: only the worker can send it now.
    const blank = await context.newPage();
    await page.close();
    await reconnect(context);
    await dispatchSync(context, blank);
    await eventually(() => server.count('contact_message', email) === 1, 30_000);
    // a later visit finds nothing left to send
    const again = await context.newPage();
    await again.goto(`${server.origin}/contact`);
    await hydrated(again);
    await expect(again.getByTestId('connection-status')).toBeVisible();
    await expect(again.getByTestId('outbox-contact')).toHaveCount(0);
    await queueSettled(again);
    expect(server.count('contact_message', email)).toBe(1);
    expect(server.posts('/api/contact-messages') - postsBefore).toBe(1);
  });

  test('Cancel takes a waiting message back: it never arrives', async ({ page, context }) => {
    const email = uniqueEmail('contact-cancel');
    const postsBefore = server.posts('/api/contact-messages');
    await visitOnline(page, '/contact');
    await goOffline(context);
    await fillContact(page, 'Asha Cancel', email);
    const outbox = page.getByTestId('outbox-contact');
    await outbox.getByRole('button', { name: 'Cancel: Message from Asha Cancel' }).click();
    await expect(outbox).toHaveCount(0);
    await reconnect(context);
    await queueSettled(page);
    expect(server.count('contact_message', email)).toBe(0);
    expect(server.posts('/api/contact-messages') - postsBefore).toBe(0);
  });

  for (const reload of [false, true]) {
    test(`a job application with its CV, made while the server is down, arrives once${reload ? ' (page reloaded before)' : ''}`, async ({
      page,
    }) => {
      const email = uniqueEmail(reload ? 'apply-reload' : 'apply');
      const postsBefore = server.posts('/api/manage-job-applications');
      await visitOnline(page, '/careers');
      await expect(page.getByRole('article')).toHaveCount(5);
      await server.stop(); // the browser still thinks it is online: the request simply fails

      await page.reload(); // the page and its openings come from this device now
      await hydrated(page);
      await expect(page.getByText(/Showing saved copy from/)).toBeVisible();
      const title = await applyToFirstOpening(page, email);
      const outbox = page.getByTestId('outbox-application');
      await expect(outbox.getByText(`Application for: ${title}`)).toBeVisible();

      if (reload) {
        await page.reload();
        await hydrated(page);
        await expect(
          page.getByTestId('outbox-application').getByText(`Application for: ${title}`),
        ).toBeVisible();
      }

      await server.start();
      await eventually(() => server.count('job_application', email) === 1);
      await expect(page.getByTestId('outbox-application')).toHaveCount(0, { timeout: 10_000 });
      await queueSettled(page);
      expect(server.count('job_application', email)).toBe(1);
      expect(server.posts('/api/manage-job-applications') - postsBefore).toBe(1);
      const db = server.db();
      const row = db.prepare('SELECT * FROM job_application WHERE email = ?').get(email) as Record<
        string,
        unknown
      >;
      db.close();
      expect(row.full_name).toBe('Asha Menon');
      expect(row.contact_number).toBe('+919876543210');
    });
  }

  test('two open pages and the service worker sending one queued application at the same moment: one POST reaches the server', async ({
    page,
    context,
  }) => {
    const email = uniqueEmail('apply-three-senders');
    const postsBefore = server.posts('/api/manage-job-applications');
    await visitOnline(page, '/careers');
    await expect(page.getByRole('article')).toHaveCount(5);
    await goOffline(context);
    const title = await applyToFirstOpening(page, email);
    const entry = (p: Page) => p.getByTestId('outbox-application').getByText(`Application for: ${title}`);
    await expect(entry(page)).toBeVisible();
    // a second tab of the site, opened without a connection, sees the same waiting entry
    const other = await context.newPage();
    await other.goto(`${server.origin}/careers`);
    await hydrated(other);
    await expect(entry(other)).toBeVisible();

    // The connection comes back for both tabs at the moment the worker is told to sync: three
    // senders at once, kept to one by the Web Lock they share.
    await server.start();
    await Promise.all([context.setOffline(false), dispatchSync(context, other)]);
    await eventually(() => server.count('job_application', email) === 1);
    await queueSettled(page);
    await queueSettled(other);
    expect(server.posts('/api/manage-job-applications') - postsBefore).toBe(1);
    expect(server.count('job_application', email)).toBe(1);
    // both tabs heard that it was sent
    await expect(page.getByTestId('outbox-application')).toHaveCount(0);
    await expect(other.getByTestId('outbox-application')).toHaveCount(0);
  });
});

test.describe('admin edits without a connection', () => {
  test.use({ allowedConsoleErrors: NETWORK_ERRORS });

  test('are kept on the device and sent once on return: a job created offline reaches the list', async ({
    page,
    context,
  }) => {
    // the suite's shared server (it has the owner account); "offline" is the browser's here
    const title = `Offline Copy Editor ${Date.now().toString(36).replace(/\d/g, 'x').toUpperCase()}`;
    await signIn(page);
    await page.getByRole('button', { name: 'Add Job' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Job Opening' });
    await dialog.getByLabel('Job Title').fill(title);
    await dialog.getByLabel('Department').fill('Editorial');
    await dialog.getByLabel('Location').fill('Kochi, India');
    await dialog.getByLabel('Job Type').selectOption({ label: 'Full-time' });
    await fillPlace(dialog);
    for (const [field, text] of [
      ['description', 'Edit manuscripts for clarity and house style.'],
      ['requirement', 'Three years of copy editing.'],
      ['about_role', 'You work with journal editors every day.'],
      ['responsibility', 'Copy edit accepted papers on time.'],
    ]) {
      await page.locator(`#job-${field}-editor`).click();
      await page.keyboard.type(text);
    }
    await context.setOffline(true);
    await expect(page.getByTestId('connection-status')).toHaveText('Offline');
    await page.getByRole('button', { name: 'Create Job' }).click();
    await expect(
      page.getByText(
        "You're offline. Your change is saved on this device and will be sent when you're back online.",
      ),
    ).toBeVisible();
    await expect(dialog).toHaveCount(0);
    const entry = page
      .getByTestId('outbox-job-opening')
      .getByRole('listitem')
      .filter({ hasText: `Opening: ${title}` });
    await expect(entry).toContainText('Waiting to send');
    // back online: sent once, and the list shows it
    await context.setOffline(false);
    await expect(page.getByText(`Your saved change to “${title}” was sent.`)).toBeVisible({
      timeout: 15_000,
    });
    await expect(page.getByTestId('outbox-job-opening')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
    const listed = await page.request.get('/api/admin/job-openings?jobid=0&search=&pagenum=1&pagesize=100');
    expect(
      ((await listed.json()) as { job_title: string }[]).filter((j) => j.job_title === title),
    ).toHaveLength(1);
  });
});

test.describe('signing out on a shared device', () => {
  test('leaves no drafts, last screen or address of the user behind, and keeps the public offline copy', async ({
    page,
    request,
    baseURL,
  }) => {
    // the public pages' offline copy is in place (the suite's shared server)
    await page.goto('/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
    await expect.poll(() => page.evaluate(async () => (await caches.keys()).length)).toBeGreaterThan(0);
    const cachedBefore = await cacheUrls(page);

    await signIn(page, undefined, '/admin/job_applications?search=Asha%20Menon', { fresh: true });
    await page.goto('/admin/books');
    await page.getByRole('button', { name: 'Add Job' }).click();
    await page
      .getByRole('dialog', { name: 'Add Job Opening' })
      .getByLabel('Job Title')
      .fill('Salary 90k, Asha');
    const kept = () =>
      page.evaluate(
        () =>
          new Promise<{ drafts: number; lastScreens: number }>((resolve) => {
            const lastScreens = Object.keys(localStorage).filter((k) =>
              k.startsWith('manna-admin-last-screen:'),
            ).length;
            const open = indexedDB.open('manna-offline');
            open.onerror = () => resolve({ drafts: 0, lastScreens });
            open.onsuccess = () => {
              const db = open.result;
              if (!db.objectStoreNames.contains('copies')) return resolve({ drafts: 0, lastScreens });
              const all = db.transaction('copies').objectStore('copies').getAll();
              all.onsuccess = () =>
                resolve({
                  drafts: (all.result as { store: string }[]).filter((r) => r.store === 'drafts').length,
                  lastScreens,
                });
            };
          }),
      );
    await expect.poll(kept, { timeout: 10_000 }).toEqual({ drafts: 1, lastScreens: 1 });
    await page.keyboard.press('Escape');
    const discard = page.getByRole('button', { name: /Discard|Close without saving/ });
    if (await discard.isVisible().catch(() => false)) await discard.click();

    const logout = page.waitForResponse((res) => res.url().endsWith('/api/auth/logout'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect((await (await logout).allHeaders())['clear-site-data']).toBe('"cache"');
    await expect(page).toHaveURL(/\/admin\/login$/);
    await expect.poll(kept).toEqual({ drafts: 0, lastScreens: 0 });
    // Clear-Site-Data "cache" leaves Cache Storage: the public pages still open offline
    expect(await cacheUrls(page)).toEqual(expect.arrayContaining(cachedBefore));

    // the next person starts at their own home, not at the address the last user left
    const editor = await makeUser(request, baseURL!, 'editor');
    await page.getByLabel('Email').fill(editor.email);
    await page.getByLabel('Password').fill(editor.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/admin(\/blog|\/password)?$/);
  });
});

// ---------------------------------------------------------------------------------------------
// Updates
// ---------------------------------------------------------------------------------------------

test.describe('a new version', () => {
  test.use({ allowedConsoleErrors: NETWORK_ERRORS });

  test("after a rebuild the page offers 'A new version is available' and Reload brings it in", async ({
    page,
  }) => {
    // A second copy of the build on its own server, so this test can rebuild it.
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-pwa-dist-'));
    const data = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-pwa-data-'));
    fs.cpSync(DIST, dist, { recursive: true });
    const own = new OwnServer(await freePort(), dist, data);
    try {
      await own.start();
      await page.goto(`${own.origin}/about`);
      await hydrated(page);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
        timeout: 30_000,
      });
      await expect(page.getByText('Ready to work offline')).toBeVisible();
      await expect(page.getByText('A new version is available')).toHaveCount(0);

      // The rebuild: a changed page, then the build's service worker step over it.
      for (const file of ['client/about.html', 'pages/en/about.html']) {
        const full = path.join(dist, file);
        fs.writeFileSync(
          full,
          fs
            .readFileSync(full, 'utf8')
            .replace('</head>', '<meta name="manna-build" content="second" /></head>'),
        );
      }
      for (const f of fs.readdirSync(path.join(dist, 'client'))) {
        if (/\.(br|gz)$/.test(f)) fs.rmSync(path.join(dist, 'client', f));
      }
      const rebuilt = spawnSync(process.execPath, ['scripts/build-pwa.mjs', '--sw-only'], {
        cwd: ROOT,
        env: { ...process.env, MANNA_DIST: dist },
        encoding: 'utf8',
      });
      expect(rebuilt.status, rebuilt.stderr).toBe(0);
      await own.stop();
      await own.start();

      await page.reload(); // the browser checks /sw.js on navigation
      await hydrated(page);
      const toast = page.getByTestId('sw-update');
      await expect(toast.getByText('A new version is available')).toBeVisible({ timeout: 30_000 });
      // listening before the click: the reload can be over by the time click() returns
      const reloaded = page.waitForEvent('load');
      // and for the page view the reloaded page counts: stopping the server while it is on its
      // way would reset it (a console error that is not this test's)
      const counted = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/views');
      await toast.getByRole('button', { name: 'Reload' }).click();
      await reloaded;
      await hydrated(page);
      await expect(page.getByText('A new version is available')).toHaveCount(0);
      await counted;

      // The new version's pages are what the device keeps now.
      await own.stop();
      await page.goto(`${own.origin}/about`);
      await expect(page.locator('meta[name="manna-build"]')).toHaveAttribute('content', 'second');
    } finally {
      await own.stop();
      fs.rmSync(dist, { recursive: true, force: true });
      fs.rmSync(data, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Installable
// ---------------------------------------------------------------------------------------------

function pngSize(buf: Buffer) {
  expect(buf.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

test.describe('installable', () => {
  test('the manifest names the app, its colours, scope, shortcuts and icons in every size', async ({
    request,
  }) => {
    const res = await request.get(`${server.origin}/manifest.webmanifest`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('application/manifest+json');
    const manifest = await res.json();
    expect(manifest).toMatchObject({
      name: expect.stringContaining('Manna'),
      short_name: 'Manna',
      description: expect.any(String),
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: '#1d4ed8',
      background_color: '#ffffff',
    });
    expect(manifest.shortcuts.map((s: { name: string; url: string }) => [s.name, s.url])).toEqual([
      ['Blog', '/blog'],
      ['Careers', '/careers'],
      ['Admin', '/admin'],
    ]);
    const icons = manifest.icons as { src: string; sizes: string; type: string; purpose: string }[];
    const sizes = (purpose: string) =>
      icons.filter((i) => i.purpose === purpose && i.type === 'image/png').map((i) => i.sizes);
    expect(sizes('any')).toEqual([
      '48x48',
      '72x72',
      '96x96',
      '128x128',
      '144x144',
      '152x152',
      '192x192',
      '256x256',
      '384x384',
      '512x512',
    ]);
    expect(sizes('maskable')).toEqual(['192x192', '512x512']);
    for (const icon of icons.filter((i) => i.type === 'image/png')) {
      const image = await request.get(`${server.origin}${icon.src}`);
      expect(image.status(), icon.src).toBe(200);
      const [w, h] = icon.sizes.split('x').map(Number);
      expect(pngSize(await image.body()), icon.src).toEqual({ width: w, height: h });
    }
    const svg = icons.find((i) => i.type === 'image/svg+xml');
    expect(svg?.sizes).toBe('any');
    expect((await request.get(`${server.origin}${svg!.src}`)).status()).toBe(200);
    // a maskable icon is opaque to its edges (the artwork sits in the safe zone)
    const maskable = await (await request.get(`${server.origin}/icons/maskable-512.png`)).body();
    expect(maskable.readUInt8(25)).toBe(2); // colour type 2 = RGB, no alpha channel
  });

  test('Chromium finds nothing that prevents installing the site', async ({ browserName }) => {
    expect(browserName).toBe('chromium');
    // A normal profile: Chromium never offers to install from an incognito one (Playwright's default).
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-pwa-profile-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumExecutable,
      args: chromiumArgs,
      headless: true,
      serviceWorkers: 'allow',
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await visitOnline(page, '/');
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: { errorId: string }[];
      };
      expect(installabilityErrors).toEqual([]);
      const { errors } = (await cdp.send('Page.getAppManifest')) as { errors: { message: string }[] };
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  });

  test('the back office installs as its own app: Manna Admin, /admin/ scope, its own icon, no installability errors', async ({
    browserName,
    request,
  }) => {
    expect(browserName).toBe('chromium');
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-pwa-admin-profile-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumExecutable,
      args: chromiumArgs,
      headless: true,
      serviceWorkers: 'allow',
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      // the installed app's start address: the back office, which asks a signed-out visitor to sign in
      await page.goto(`${server.origin}/admin/`);
      await expect(page).toHaveURL(/\/admin\/login/);
      await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
        timeout: 30_000,
      });
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: { errorId: string }[];
      };
      expect(installabilityErrors).toEqual([]);
      const manifest = (await cdp.send('Page.getAppManifest')) as {
        url: string;
        errors: unknown[];
        data: string;
      };
      expect(manifest.errors).toEqual([]);
      expect(new URL(manifest.url).pathname).toBe('/admin.webmanifest');
      const data = JSON.parse(manifest.data) as {
        id: string;
        name: string;
        start_url: string;
        scope: string;
        icons: { src: string; purpose: string }[];
      };
      expect(data).toMatchObject({
        id: '/admin/',
        name: 'Manna Admin',
        start_url: '/admin/',
        scope: '/admin/',
      });
      // its own icons, not the public site's
      expect(data.icons.map((i) => i.src)).toEqual([
        '/icons/admin-192.png',
        '/icons/admin-512.png',
        '/icons/admin-maskable-512.png',
      ]);
      for (const icon of data.icons)
        expect((await request.get(`${server.origin}${icon.src}`)).status()).toBe(200);
      // and the public pages keep the site's own manifest
      await page.goto(`${server.origin}/about`);
      await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  });

  test('budgets: precache at most 2 MB, service worker at most 30 KB gzip', async () => {
    const precache = JSON.parse(fs.readFileSync(path.join(DIST, 'precache.json'), 'utf8')) as {
      bytes: number;
      entries: number;
    };
    const sw = fs.readFileSync(path.join(DIST, 'client', 'sw.js'));
    const swGzip = zlib.gzipSync(sw, { level: 9 }).length;
    console.log(
      `precache: ${precache.entries} files, ${(precache.bytes / 1e6).toFixed(2)} MB; sw.js ${(swGzip / 1000).toFixed(1)} kB gzip`,
    );
    expect(precache.bytes).toBeLessThanOrEqual(2_000_000);
    expect(swGzip).toBeLessThanOrEqual(30_000);
    // the installed app's icons are in the precache list the worker carries
    for (const icon of ['icons/icon-192.png', 'icons/icon-512.png', 'icons/maskable-512.png']) {
      expect(sw.toString('utf8')).toContain(icon);
    }
  });
});
