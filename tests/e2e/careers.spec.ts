import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page, Route } from '@playwright/test';
import { test, expect, expectNoAxeViolations } from './fixtures';
import { fillApplication } from './apply-helpers';
import { createOpeningByApi, ownerApi } from './admin-helpers';
import { pdfOfSize, sampleExe } from '../fixtures/files';

const OPENINGS = '**/api/bind-job-openings?*';
const APPLY = '**/api/manage-job-applications';
const MB = 1024 * 1024;

/** The e2e server's data folder (playwright.config.ts makes one per run). */
const dataDir = () => process.env.E2E_DATA_DIR!;

function openDb() {
  return new Database(path.join(dataDir(), 'manna.sqlite'), { readonly: true, fileMustExist: true });
}

async function openModal(page: Page, title = 'Senior Full-Stack Engineer') {
  const card = page.getByRole('article', { name: title });
  await card.getByRole('button', { name: 'Apply' }).click();
  const dialog = page.getByRole('dialog', { name: `Apply for: ${title}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

const fillValid = fillApplication;

/**
 * Lets the openings request through (after `gate`, when given) and remembers how many openings the
 * server sent: the admin specs add openings while these run, so the count is not always the seed's.
 */
async function serveOpenings(
  page: Page,
  { gate, failFirst = false }: { gate?: Promise<void>; failFirst?: boolean } = {},
) {
  const served = { count: -1, fail: failFirst };
  await page.route(OPENINGS, async (route) => {
    if (served.fail) {
      await route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"down"}' });
      return;
    }
    await gate;
    const response = await route.fetch();
    const rows: unknown = await response.json();
    served.count = Array.isArray(rows) ? rows.length : -1;
    await route.fulfill({ response });
  });
  return served;
}

/**
 * /careers reached inside the app (from /about, by the footer's link): the list loads its openings
 * through the API, as it does on a page change. Opened by its address, the page comes with them.
 */
async function toCareers(page: Page) {
  await page.goto('/about');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Careers', exact: true }).click();
  await expect(page).toHaveURL(/\/careers$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Current Openings' })).toBeVisible();
}

/** Waits for the list and checks it shows one card per opening the server sent (at least the seed's 5). */
async function expectAllOpenings(page: Page, served: { count: number }) {
  await expect.poll(() => served.count).toBeGreaterThanOrEqual(5);
  await expect(page.getByRole('article')).toHaveCount(served.count);
  return served.count;
}

const uniqueEmail = (tag: string) =>
  `asha.${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;

test.describe('careers page states', () => {
  test('reached inside the app, shows "Loading job openings..." while the list loads, then the cards', async ({
    page,
  }) => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const served = await serveOpenings(page, { gate });
    await toCareers(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Current Openings' })).toBeVisible();
    await expect(page.getByText('Loading job openings...')).toBeVisible();
    release();
    await expectAllOpenings(page, served);
    await expect(page.getByText('Loading job openings...')).toHaveCount(0);
  });

  test('the first HTML lists the open openings, and the page loads nothing more to show them', async ({
    page,
    request,
  }) => {
    const html = await (await request.get('/careers')).text();
    expect(html).not.toContain('Loading job openings...');
    expect(html).toContain('Senior Full-Stack Engineer');
    expect(html).not.toContain('application/ld+json');
    const api = (await (await request.get('/api/bind-job-openings?pagenum=1&pagesize=20')).json()) as {
      job_title: string;
    }[];
    const fetched: string[] = [];
    page.on('request', (r) => r.url().includes('/api/bind-job-openings') && fetched.push(r.url()));
    await page.goto('/careers');
    await expect(page.getByRole('article')).toHaveCount(api.length);
    await expect(page.getByRole('article').getByRole('heading', { level: 2 })).toHaveText(
      api.map((r) => r.job_title),
    );
    await page.waitForTimeout(500);
    expect(fetched).toEqual([]);
    await expect(page.getByText('Loading job openings...')).toHaveCount(0);
  });

  test.describe('when the list fails', () => {
    test.use({
      allowedConsoleErrors: [/Failed to load resource: the server responded with a status of 503/],
    });

    test('shows "Failed to load job openings." in red, and Retry loads the list', async ({ page }) => {
      const served = await serveOpenings(page, { failFirst: true });
      await toCareers(page);
      const message = page.getByText('Failed to load job openings.');
      await expect(message).toBeVisible();
      await expect(message).toHaveCSS('color', 'rgb(185, 28, 28)');
      await expect(page.getByRole('article')).toHaveCount(0);
      await expectNoAxeViolations(page);
      served.fail = false;
      await page.getByRole('button', { name: 'Retry' }).click();
      await expectAllOpenings(page, served);
      await expect(message).toHaveCount(0);
    });
  });

  test('shows "No job openings available at the moment." for an empty list', async ({ page }) => {
    await page.route(OPENINGS, (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }),
    );
    await toCareers(page);
    await expect(page.getByText('No job openings available at the moment.')).toBeVisible();
    await expect(page.getByRole('article')).toHaveCount(0);
    await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(0);
  });
});

test.describe('job cards', () => {
  test('each card shows title, Location, Type, Department, About the Role and the two lists, and passes axe', async ({
    page,
  }) => {
    await page.goto('/careers');
    const card = page.getByRole('article', { name: 'Senior Full-Stack Engineer' });
    await expect(card).toBeVisible();
    await expect(card.getByRole('heading', { level: 2 })).toHaveText('Senior Full-Stack Engineer');
    await expect(card.locator('dt', { hasText: 'Location' }).locator('+ dd')).toHaveText('Chennai, India');
    await expect(card.locator('dt', { hasText: 'Type' }).locator('+ dd')).toHaveText('Full-time');
    await expect(card.locator('dt', { hasText: 'Department' }).locator('+ dd')).toHaveText('Engineering');
    await expect(card.getByRole('heading', { name: 'About the Role:' })).toBeVisible();
    // the HTML (<p>…<strong>TypeScript</strong>…</p>) as text
    await expect(
      card.getByText(/^You will own features end to end in a small product team: TypeScript on the server/),
    ).toBeVisible();
    await expect(card.locator('strong')).toHaveCount(0);
    const section = (heading: string) =>
      card.locator('section', { has: page.getByRole('heading', { name: heading }) });
    await expect(section('Responsibilities:').getByRole('listitem')).toHaveText([
      'Design, build and ship features across the API and the web app',
      'Keep the submission and peer-review flows fast and reliable',
      'Review code and pair with other engineers',
      'Talk to editors to understand the problems behind feature requests',
    ]);
    await expect(section('Requirements:').getByRole('listitem')).toHaveText([
      '5+ years building web applications in TypeScript or JavaScript',
      'Solid SQL and experience with PostgreSQL',
      'Experience with React and a Node.js server framework',
      'Clear written English',
    ]);
    await expect(card.getByRole('button', { name: 'Apply' })).toBeVisible();
    await expect(card.locator('dt', { hasText: 'Workplace' }).locator('+ dd')).toHaveText('On site');
    await expectNoAxeViolations(page);
    // a German page says the type and workplace in German; the place stays as written
    await page.goto('/de/careers');
    const german = page.getByRole('article', { name: 'Editorial Operations Specialist' });
    await expect(german.locator('dt', { hasText: 'Art' }).locator('+ dd')).toHaveText('Teilzeit');
    await expect(german.locator('dt', { hasText: 'Arbeitsort' }).locator('+ dd')).toHaveText('Hybrid');
    await expect(german.locator('dt', { hasText: 'Standort' }).locator('+ dd')).toHaveText(
      'London, United Kingdom',
    );
  });

  test('HTML from the server is only ever read as text: scripts and handlers never run', async ({ page }) => {
    const hostile = {
      job_id: 999,
      job_title: '<img src=x onerror="window.__pwned=1">Night Editor',
      department: 'Editorial',
      location: 'Kochi, India',
      job_type_id: 1,
      job_type_name: 'Full-time',
      description: '<p>Desc</p>',
      about_role:
        '<p>Safe <img src="/x.png" onerror="window.__pwned=2">text</p><script>window.__pwned=3</script>',
      responsibility:
        '<ul><li>One <b onmouseover="window.__pwned=4">bold</b></li><li><a href="javascript:window.__pwned=5">Two</a></li></ul>',
      requirement: '<p>First line</p><p>Second line</p>',
    };
    const imageRequests: string[] = [];
    page.on('request', (r) => r.url().endsWith('/x.png') && imageRequests.push(r.url()));
    await page.route(OPENINGS, (route: Route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify([hostile]) }),
    );
    await toCareers(page);
    const card = page.getByRole('article');
    await expect(card.getByRole('heading', { level: 2 })).toHaveText(hostile.job_title); // shown as text
    await expect(card.getByText('Safe text')).toBeVisible();
    await expect(card.getByRole('listitem')).toHaveText(['One bold', 'Two', 'First line', 'Second line']);
    await expect(
      card.locator('img, script:not([type="application/ld+json"]), a[href^="javascript"]'),
    ).toHaveCount(0);
    await card.getByText('One bold').hover();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(imageRequests).toEqual([]);
    // the title links to the opening's page by its number, whatever the title holds
    await expect(card.getByRole('link')).toHaveAttribute(
      'href',
      '/careers/999-img-src-x-onerror-window-pwned-1-night-editor',
    );
  });
});

/** Google's required and recommended JobPosting properties (developers.google.com/search/docs/appearance/structured-data/job-posting). */
function expectJobPosting(ld: Record<string, unknown>) {
  for (const field of ['title', 'description', 'datePosted', 'hiringOrganization'])
    expect(ld[field], field).toBeTruthy();
  expect(ld['@context']).toBe('https://schema.org');
  expect(ld['@type']).toBe('JobPosting');
  expect(String(ld.datePosted)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(ld.hiringOrganization).toMatchObject({
    '@type': 'Organization',
    name: 'Manna',
    sameAs: expect.stringMatching(/^http/),
  });
  expect(ld.identifier).toMatchObject({ '@type': 'PropertyValue', value: expect.stringMatching(/^\d+$/) });
  expect(String(ld.url)).toMatch(/^https?:\/\/[^/]+\/careers\/\d+-[a-z0-9-]+$/);
  // a place, or for a remote job where applicants may live
  if (ld.jobLocationType === 'TELECOMMUTE')
    expect(ld.applicantLocationRequirements).toMatchObject({ name: expect.any(String) });
  else
    expect(ld.jobLocation).toMatchObject({
      '@type': 'Place',
      address: { '@type': 'PostalAddress', addressLocality: expect.any(String) },
    });
  // openings have no closing date: Google asks to leave validThrough out then
  expect(ld).not.toHaveProperty('validThrough');
}

test.describe('job pages', () => {
  for (const width of [1280, 390]) {
    test(`a card's title opens the opening's page: the whole text, Apply, JobPosting JSON-LD, axe (${width} px)`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/careers');
      await page.getByRole('article', { name: 'Senior Full-Stack Engineer' }).getByRole('link').click();
      await expect(page).toHaveURL(/\/careers\/\d+-senior-full-stack-engineer$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Senior Full-Stack Engineer' })).toBeVisible();
      await expect(page).toHaveTitle('Senior Full-Stack Engineer | Careers at Manna');
      // the Description, which the cards leave out, and the rest of the card
      await expect(page.getByText('Build the manuscript platform that journals use every day')).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Requirements:' })).toBeVisible();
      // what a crawler reads: the page as the server sends it (JSON-LD is written into the head there)
      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: 'Senior Full-Stack Engineer' })).toBeVisible();
      const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
      expectJobPosting(ld);
      expect(ld).toMatchObject({
        title: 'Senior Full-Stack Engineer',
        employmentType: 'FULL_TIME',
        url: page.url(),
        jobLocation: { address: { addressLocality: 'Chennai', addressCountry: 'IN' } },
      });
      expect(ld.description).toContain('Build the manuscript platform');
      expect(ld.description).toContain('Responsibilities: Design, build and ship features');
      await expectNoAxeViolations(page);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(width);
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect(page.getByRole('dialog', { name: 'Apply for: Senior Full-Stack Engineer' })).toBeVisible();
      await expectNoAxeViolations(page);
      await page.keyboard.press('Escape');
      await page.getByRole('link', { name: '← All openings' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Current Openings' })).toBeVisible();
    });
  }

  test('the server sends the whole page with its JSON-LD, for a remote opening too; the page hydrates without a request', async ({
    page,
    request,
  }) => {
    const sitemap = await (await request.get('/sitemap-en.xml')).text();
    const address = /<loc>https?:\/\/[^/]+(\/careers\/\d+-technical-writer)<\/loc>/.exec(sitemap)?.[1];
    expect(address).toBeTruthy();
    const html = await (await request.get(address!)).text();
    expect(html).toContain('<h1');
    expect(html).toContain('Write the documentation and API reference');
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1]);
    expectJobPosting(ld);
    expect(ld).toMatchObject({
      jobLocationType: 'TELECOMMUTE',
      applicantLocationRequirements: { name: 'Anywhere (UTC-5 to UTC+5:30)' },
    });
    const requests: string[] = [];
    page.on('request', (r) => r.url().includes('/api/bind-job-openings') && requests.push(r.url()));
    await page.goto(address!);
    await expect(page.getByRole('heading', { level: 1, name: 'Technical Writer' })).toBeVisible();
    await page.getByRole('button', { name: 'Apply' }).click(); // hydrated
    await expect(page.getByRole('dialog', { name: 'Apply for: Technical Writer' })).toBeVisible();
    expect(requests).toEqual([]);
  });

  test.describe('an opening that is not open', () => {
    test.use({
      allowedConsoleErrors: [/Failed to load resource: the server responded with a status of 404/],
    });
    test('says it is no longer available, in the language chosen, and links to the open ones (both widths, axe)', async ({
      page,
    }) => {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 800 });
        const response = await page.goto('/careers/2147483000-filled-long-ago');
        expect(response?.status()).toBe(404);
        await expect(
          page.getByRole('heading', { level: 1, name: 'This opening is no longer available' }),
        ).toBeVisible();
        await expectNoAxeViolations(page);
      }
      await page.getByRole('link', { name: 'See current openings' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Current Openings' })).toBeVisible();
      await page.goto('/de/careers/2147483000-filled-long-ago');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Diese Stelle ist nicht mehr verfügbar' }),
      ).toBeVisible();
    });
  });
});

test.describe('apply modal', () => {
  test('takes a number of any country: chosen beside it, judged by its rules, kept in E.164 (axe)', async ({
    page,
  }) => {
    await page.goto('/careers');
    const dialog = await openModal(page);
    const country = dialog.getByLabel('Country code');
    // the visitor's country (the loopback address has none: India), all countries once the rules load
    await expect(country).toHaveValue('IN');
    await expect(dialog.getByText('10 digits, no spaces')).toBeVisible();
    await expect.poll(() => country.locator('option').count()).toBeGreaterThan(200);
    await expect(country.locator('option:checked')).toHaveText('India (+91)');
    const email = uniqueEmail('de');
    await fillValid(page, email);
    await country.selectOption('DE');
    await expect(dialog.getByText('As you would dial it in that country, or starting with +')).toBeVisible();
    const contact = dialog.getByLabel('Contact Number');
    await contact.fill('030 12');
    await contact.blur();
    await expect(dialog.getByText('Enter a phone number of the chosen country')).toBeVisible();
    await contact.fill('030 901820');
    await expect(dialog.getByText('Enter a phone number of the chosen country')).toHaveCount(0);
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Application submitted successfully!')).toBeVisible({ timeout: 15_000 });
    const db = openDb();
    try {
      const row = db.prepare('select contact_number from job_application where email = ?').get(email) as {
        contact_number: string;
      };
      expect(row.contact_number).toBe('+4930901820');
    } finally {
      db.close();
    }
  });

  test.describe('an opening that closes meanwhile', () => {
    // the server's answer to the application: 404, the opening is gone
    test.use({
      allowedConsoleErrors: [/Failed to load resource: the server responded with a status of 404/],
    });

    test('an opening closed while its form is open: the form says so, keeps what was typed, and links the open ones', async ({
      page,
      request,
      baseURL,
    }) => {
      const origin = new URL(baseURL!).origin;
      const api = await ownerApi(request, baseURL!);
      const title = `Closing Soon ${Date.now().toString(36)}`;
      const id = await createOpeningByApi(api, request, title);
      await page.goto('/careers');
      const dialog = await openModal(page, title);
      const email = uniqueEmail('closed');
      await fillApplication(page, email);
      // an owner closes it meanwhile
      const [row] = (await (await request.get(`/api/admin/job-openings?jobid=${id}`)).json()) as {
        version: number;
      }[];
      const closed = await request.patch(`/api/admin/job-openings/${id}`, {
        headers: { origin, 'if-match': `"${row.version}"` },
        data: { status: 'Closed' },
      });
      expect(closed.status()).toBe(200);
      await dialog.getByRole('button', { name: 'Submit' }).click();
      await expect(
        dialog.getByText(
          'This opening has just closed, so the application was not sent. What you typed is still here.',
        ),
      ).toBeVisible();
      await expect(page.getByText('Could not submit the application. Please try again later.')).toHaveCount(
        0,
      );
      await expect(dialog.getByLabel('Email Address')).toHaveValue(email);
      await expectNoAxeViolations(page);
      await dialog.getByRole('link', { name: 'See the openings still open' }).click();
      await expect(page).toHaveURL(/\/careers$/);
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(page.getByRole('article', { name: title })).toHaveCount(0);
    });
  });

  test('opens as a dialog titled "Apply for: {job title}", traps focus, and passes axe', async ({ page }) => {
    await page.goto('/careers');
    const dialog = await openModal(page);
    for (const label of ['Full Name', 'Email Address', 'Contact Number', 'Upload Your Current CV/Resume']) {
      await expect(dialog.getByLabel(label)).toBeVisible();
    }
    await expect(dialog.getByRole('textbox', { name: 'Address', exact: true })).toBeVisible();
    await expect(dialog.getByLabel('Upload Your Current CV/Resume')).toHaveAttribute(
      'accept',
      /\.pdf,\.doc,\.docx/,
    );
    await expect(dialog.getByRole('button', { name: 'Submit' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeVisible();
    // the honeypot is not for people
    await expect(page.locator('#apply-website')).not.toBeInViewport();
    await expectNoAxeViolations(page, { label: 'careers with the apply modal open' });
    // The page behind is inert: Tab cycles through the dialog (and, past its end, the browser's
    // own controls, which headless Chromium reports as no focused element), never the page.
    const seen = new Set<string>();
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      const where = await page.evaluate(() => {
        const el = document.activeElement;
        if (!el || el === document.body) return 'browser';
        return el.closest('dialog')
          ? `dialog:${el.id || el.textContent}`
          : `page:${el.outerHTML.slice(0, 60)}`;
      });
      expect(where).not.toMatch(/^page:/);
      seen.add(where);
    }
    expect([...seen]).toEqual(expect.arrayContaining(['dialog:apply-full-name', 'dialog:apply-consent']));
  });

  test('shows every validation message, on blur', async ({ page }) => {
    await page.goto('/careers');
    const dialog = await openModal(page);
    const name = dialog.getByLabel('Full Name');
    const email = dialog.getByLabel('Email Address');
    const contact = dialog.getByLabel('Contact Number');
    const address = dialog.getByRole('textbox', { name: 'Address', exact: true });
    const resume = dialog.getByLabel('Upload Your Current CV/Resume');

    await name.focus();
    await email.focus();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await contact.focus();
    await expect(dialog.getByText('Email is required')).toBeVisible();
    await address.focus();
    await expect(dialog.getByText('Contact is required')).toBeVisible();
    await name.focus();
    await expect(dialog.getByText('Address is required')).toBeVisible();

    await email.fill('asha@example');
    await email.blur();
    await expect(dialog.getByText('Invalid email')).toBeVisible();
    await email.fill('asha@example.com');
    await expect(dialog.getByText('Invalid email')).toHaveCount(0);

    for (const bad of ['987654321', '98765432101']) {
      await contact.fill(bad);
      await contact.blur();
      await expect(dialog.getByText('Must be 10 digits')).toBeVisible();
    }
    await contact.fill('98765abc10');
    await expect(dialog.getByText('Enter a phone number of the chosen country')).toBeVisible();
    await contact.fill('9876543210');
    await expect(dialog.getByText('Must be 10 digits')).toHaveCount(0);

    await resume.setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('png') });
    await expect(dialog.getByText('Only PDF, DOC, DOCX allowed')).toBeVisible();
    await resume.setInputFiles({
      name: 'big.pdf',
      mimeType: 'application/pdf',
      buffer: pdfOfSize(5 * MB + 1),
    });
    await expect(dialog.getByText('File too large (max 5MB)')).toBeVisible();
    await resume.setInputFiles([]);
    await expect(dialog.getByText('Resume is required')).toBeVisible();
    await expectNoAxeViolations(page, { label: 'apply modal with messages' });
  });

  test('a dismissed CV picker asks nothing and the form goes on', async ({ page }) => {
    await page.goto('/careers');
    const dialog = await openModal(page);
    await dialog.getByLabel('Full Name').fill('Asha Menon');
    // headless Chromium dismisses every file picker at once, firing the input's own `cancel`
    const cancelled = page.evaluate(
      () =>
        new Promise<string>((resolve) =>
          document.addEventListener('cancel', (e) => resolve((e.target as Element).tagName), {
            capture: true,
            once: true,
          }),
        ),
    );
    await dialog.getByLabel('Upload Your Current CV/Resume').click();
    expect(await cancelled).toBe('INPUT');
    await expect(page.getByText('Discard what you typed?')).toHaveCount(0);
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Email Address').pressSequentially('asha@example.com');
    await expect(dialog.getByLabel('Email Address')).toHaveValue('asha@example.com');
    await expect(dialog.getByLabel('Full Name')).toHaveValue('Asha Menon');
  });

  test('Submit on an empty form shows all messages and focuses the first field', async ({ page }) => {
    await page.goto('/careers');
    const dialog = await openModal(page);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    for (const message of [
      'Name is required',
      'Email is required',
      'Contact is required',
      'Address is required',
      'Resume is required',
      'Please confirm that we may use your data for recruiting',
    ]) {
      await expect(dialog.getByText(message)).toBeVisible();
    }
    await expect(dialog.getByLabel('Full Name')).toBeFocused();
  });

  test('Cancel resets the form and closes; Escape closes; focus returns to Apply', async ({ page }) => {
    await page.goto('/careers');
    let dialog = await openModal(page);
    await dialog.getByLabel('Full Name').fill('Asha');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const apply = page
      .getByRole('article', { name: 'Senior Full-Stack Engineer' })
      .getByRole('button', { name: 'Apply' });
    await expect(apply).toBeFocused();
    dialog = await openModal(page);
    await expect(dialog.getByLabel('Full Name')).toHaveValue('');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(apply).toBeFocused();
  });

  test('a click beside the form or Escape closes an empty form, and asks before throwing away what was typed', async ({
    page,
  }) => {
    await page.goto('/careers');
    const backdrop = () => page.mouse.click(5, 5); // outside the dialog box: its ::backdrop
    await openModal(page);
    await backdrop();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    const dialog = await openModal(page);
    await dialog.getByLabel('Full Name').fill('Asha Menon');
    await backdrop();
    const question = dialog.getByRole('alert').filter({ hasText: 'Discard what you typed?' });
    await expect(question).toBeVisible();
    await expect(question.getByRole('button', { name: 'Keep editing' })).toBeFocused();
    await expectNoAxeViolations(page, { label: 'discard question' });
    await page.keyboard.press('Enter'); // keeps editing
    await expect(question).toHaveCount(0);
    await expect(dialog.getByLabel('Full Name')).toHaveValue('Asha Menon');

    await page.keyboard.press('Escape');
    await expect(question).toBeVisible();
    await question.getByRole('button', { name: 'Discard' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await openModal(page);
    await expect(page.getByRole('dialog').getByLabel('Full Name')).toHaveValue('');
  });

  test('a real PDF is uploaded with a progress bar; the toast says so; the row and the file exist', async ({
    page,
  }) => {
    await page.goto('/careers');
    const dialog = await openModal(page, 'Editorial Operations Specialist');
    const email = uniqueEmail('ok');
    await fillValid(page, email);
    // A 1.5 MB PDF on a slow uplink, so the progress bar can be seen moving.
    await dialog
      .getByLabel('Upload Your Current CV/Resume')
      .setInputFiles({ name: 'Asha Menon CV.pdf', mimeType: 'application/pdf', buffer: pdfOfSize(1.5 * MB) });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: 4 * MB,
      uploadThroughput: 600 * 1024,
    });
    const sent = page.waitForRequest(APPLY);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    const request = await sent;
    expect(request.headers()['idempotency-key']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(new URL(request.url()).pathname).toBe('/api/manage-job-applications');
    const progress = dialog.getByRole('progressbar', { name: 'Upload progress' });
    await expect(progress).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Submitting...' })).toBeDisabled();
    await expect
      .poll(async () => Number(await progress.getAttribute('value')), { timeout: 10_000 })
      .toBeGreaterThan(0);

    const toast = page.getByText('Application submitted successfully!');
    await expect(toast).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // top right
    const box = (await toast.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.y).toBeLessThan(150);
    expect(box.x + box.width).toBeGreaterThan(viewport.width * 0.6);

    const db = openDb();
    try {
      const row = db
        .prepare(
          `select a.*, f.content_type, f.byte_size, f.original_name from job_application a
           join stored_file f on f.file_key = a.resume where a.email = ?`,
        )
        .get(email) as Record<string, unknown>;
      expect(row).toMatchObject({
        full_name: 'Asha Menon',
        contact_number: '+919876543210',
        status: 'New',
        is_duplicate: 0,
        content_type: 'application/pdf',
        byte_size: 1.5 * MB,
        original_name: 'Asha Menon CV.pdf',
        idempotency_key: request.headers()['idempotency-key'],
      });
      expect(row.consent_at).toEqual(expect.any(String));
      const file = path.join(dataDir(), 'files', String(row.resume));
      expect(fs.statSync(file).size).toBe(1.5 * MB);
      expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
    } finally {
      db.close();
    }

    // the toast lasts 4 s
    await expect(toast).toBeHidden({ timeout: 6_000 });
    // the form is reset for the next time
    await openModal(page, 'Editorial Operations Specialist');
    await expect(page.getByRole('dialog').getByLabel('Full Name')).toHaveValue('');
  });

  test.describe('when sending fails', () => {
    test.use({
      allowedConsoleErrors: [/Failed to load resource: the server responded with a status of (500|415)/],
    });

    test('shows "Failed to submit application. Please try again later." and keeps everything typed', async ({
      page,
    }) => {
      await page.route(APPLY, (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
      );
      await page.goto('/careers');
      const dialog = await openModal(page);
      const email = uniqueEmail('fail');
      await fillValid(page, email);
      await dialog.getByRole('button', { name: 'Submit' }).click();
      const toast = page.getByText('Failed to submit application. Please try again later.');
      await expect(toast).toBeVisible();
      await expect(dialog).toBeVisible();
      await expect(dialog.getByLabel('Full Name')).toHaveValue('Asha Menon');
      await expect(dialog.getByLabel('Email Address')).toHaveValue(email);
      await expect(dialog.getByLabel('Contact Number')).toHaveValue('9876543210');
      await expect(dialog.getByRole('textbox', { name: 'Address', exact: true })).toHaveValue(
        '12 MG Road, Kochi, Kerala',
      );
      await expect(dialog.getByText(/Chosen: Asha Menon CV\.pdf/)).toBeVisible();
      await expect(dialog.getByRole('checkbox')).toBeChecked();
      await expect(dialog.getByRole('button', { name: 'Submit' })).toBeEnabled();
      // red, like every error toast (the colour is on the toast around the message)
      await expect(toast.locator('..')).toHaveCSS('background-color', 'rgb(185, 28, 28)');
    });

    test('an executable renamed .pdf is refused by the server, which says why under the field', async ({
      page,
    }) => {
      await page.goto('/careers');
      const dialog = await openModal(page);
      const email = uniqueEmail('exe');
      await fillValid(page, email);
      await dialog
        .getByLabel('Upload Your Current CV/Resume')
        .setInputFiles({ name: 'cv.pdf', mimeType: 'application/pdf', buffer: sampleExe() });
      await dialog.getByRole('button', { name: 'Submit' }).click();
      await expect(page.getByText('Failed to submit application. Please try again later.')).toBeVisible();
      await expect(dialog.getByText('Only PDF, DOC, DOCX allowed')).toBeVisible();
      const db = openDb();
      try {
        expect(db.prepare('select count(*) as n from job_application where email = ?').get(email)).toEqual({
          n: 0,
        });
      } finally {
        db.close();
      }
    });
  });
});

test.describe('careers on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('an opening with a very long word wraps instead of widening the page', async ({ page }) => {
    const long = `<img src=x onerror=window.__xss=1>${'Manuscript'.repeat(12)}`;
    await page.route(OPENINGS, async (route) => {
      const response = await route.fetch();
      const rows = (await response.json()) as Record<string, unknown>[];
      const odd = {
        ...rows[0],
        job_id: 999_999,
        job_title: `Editor ${'X'.repeat(80)}`,
        location: long,
        about_role: `<p>${long}</p>`,
      };
      await route.fulfill({ response, json: [odd, ...rows] });
    });
    await toCareers(page);
    await expect(page.getByRole('article').first()).toContainText('XXXXXXXX');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test('the cards and the modal fit, and the form can be sent', async ({ page }) => {
    const served = await serveOpenings(page);
    await toCareers(page);
    await expectAllOpenings(page, served);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const dialog = await openModal(page, 'Technical Writer');
    await fillValid(page, uniqueEmail('phone'));
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Application submitted successfully!')).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
