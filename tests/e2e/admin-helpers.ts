import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { samplePdf } from '../fixtures/files';
import { expect } from './fixtures';

/** The owner account playwright.config.ts creates with ADMIN_EMAIL / ADMIN_PASSWORD. */
export const OWNER = { email: 'owner@e2e.example', password: 'e2e owner passphrase for tests' };

/** The owner's session, saved by the setup project (auth.setup.ts) in the run's data folder. */
export const OWNER_STATE = path.join(process.env.E2E_DATA_DIR ?? os.tmpdir(), 'auth', 'owner.json');

/**
 * Opens `path` signed in as `who`. The owner reuses the session the setup project saved (one
 * sign-in per run) on the suite's own server; anyone else, another server (a full address), or a
 * test that will sign out (`fresh`) signs in through the page.
 */
export async function signIn(
  page: Page,
  who: { email: string; password: string } = OWNER,
  path = '/admin/books',
  { fresh = false } = {},
) {
  if (!fresh && who.email === OWNER.email && path.startsWith('/') && fs.existsSync(OWNER_STATE)) {
    const state = JSON.parse(fs.readFileSync(OWNER_STATE, 'utf8')) as {
      cookies: Parameters<ReturnType<Page['context']>['addCookies']>[0];
    };
    await page.context().addCookies(state.cookies);
    await page.goto(path);
    await expect(page.getByRole('complementary', { name: 'Admin Panel' })).toBeVisible();
    return;
  }
  await page.goto(path);
  await expect(page).toHaveURL(/\/admin\/login\?next=/);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('complementary', { name: 'Admin Panel' })).toBeVisible();
}

/** An API session of the owner (same-origin headers), for setting up users and data. */
export async function ownerApi(request: APIRequestContext, baseURL: string) {
  const origin = new URL(baseURL).origin;
  const login = await request.post('/api/auth/login', { headers: { origin }, data: OWNER });
  expect(login.status()).toBe(200);
  return {
    post: (url: string, data: unknown) => request.post(url, { headers: { origin }, data: data as object }),
  };
}

/** The code an authenticator app shows for `secret` at the 30-second step `step`. */
export const totpCode = (secret: string, step: number) =>
  new TOTP({ secret: Secret.fromBase32(secret.replace(/\s/g, '')), digits: 6, period: 30 }).generate({
    timestamp: step * 30_000,
  });

/** The last step a code of each secret was given for: a code works once, so the next sign-in takes a later one. */
const usedSteps = new Map<string, number>();
/** The last step a code of `secret` was given for here, and telling of one given in another process. */
export const lastTotpStep = (secret: string) => usedSteps.get(secret) ?? -1;
export const markTotpStepUsed = (secret: string, step: number) =>
  usedSteps.set(secret, Math.max(step, lastTotpStep(secret)));

/**
 * A code of `secret` the server has not seen: this step's, or the next one's (the server allows one
 * step of drift) when this step's was used, waiting for the next step only past that.
 */
export async function freshTotpCode(secret: string): Promise<string> {
  let now = Math.floor(Date.now() / 30_000);
  const last = usedSteps.get(secret) ?? -1;
  if (last > now) {
    await new Promise((resolve) => setTimeout(resolve, last * 30_000 - Date.now() + 1_000));
    now = Math.floor(Date.now() / 30_000);
  }
  const step = Math.max(now, last + 1);
  usedSteps.set(secret, step);
  return totpCode(secret, step);
}

/**
 * On Sign-in security (or the setup screen a role requiring a factor leads to): adds an
 * authenticator app as a person does, reading its key off the screen; answers the key and the
 * recovery codes shown once.
 */
export async function addAuthenticatorApp(page: Page, name?: string) {
  await page.getByRole('button', { name: 'Add an authenticator app' }).click();
  const secret = (await page.getByLabel('Key for the authenticator app').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel('Code from the app').fill(await freshTotpCode(secret));
  if (name) await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Confirm and add' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save your recovery codes' });
  await expect(dialog).toBeVisible();
  const codes = await dialog.locator('ol code').allInnerTexts();
  expect(codes).toHaveLength(10);
  await dialog.getByRole('button', { name: 'I have saved them' }).click();
  await expect(dialog).toBeHidden();
  return { secret, codes };
}

/** The second step of sign-in with the authenticator app. */
export async function enterTotp(page: Page, secret: string) {
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  await page.getByLabel('Authentication code').fill(await freshTotpCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
}

/**
 * For a spec's own server (own-server.ts) whose owner comes from ADMIN_EMAIL: a new install's owner
 * role requires a second factor, so the owner adds an authenticator app through the API, turns
 * the rule off and removes the app again, as tests/e2e/auth.setup.ts does through the pages for
 * the suite's server; the spec's owner then signs in with a password alone.
 */
export async function passwordOnlyOwners(request: APIRequestContext, origin: string, who = OWNER) {
  const headers = { origin };
  const call = async (method: 'post' | 'patch' | 'delete', url: string, data?: object, more = {}) => {
    const res = await request[method](`${origin}${url}`, { headers: { ...headers, ...more }, data });
    expect(res.status(), `${method} ${url}: ${await res.text()}`).toBe(200);
    return res.json();
  };
  await call('post', '/api/auth/login', who);
  const { secret } = await call('post', '/api/auth/factors/totp');
  const added = await call('post', '/api/auth/factors/totp/confirm', { code: await freshTotpCode(secret) });
  const roles = (await (await request.get(`${origin}/api/admin/roles`)).json()) as {
    role_id: number;
    name: string;
    permissions: string[];
    version: number;
  }[];
  const owner = roles.find((r) => r.name === 'owner')!;
  await call(
    'patch',
    `/api/admin/roles/${owner.role_id}`,
    { name: owner.name, permissions: owner.permissions, requires_second_factor: false },
    { 'if-match': `"${owner.version}"` },
  );
  await call('delete', `/api/auth/factors/${added.factors.factors[0].factor_id}`);
  await call('post', '/api/auth/logout', {});
}

let n = 0;
/** A new user with a built-in role and a known password (made through the owner's API). */
export async function makeUser(
  request: APIRequestContext,
  baseURL: string,
  role: 'editor' | 'recruiter' | 'owner',
) {
  const api = await ownerApi(request, baseURL);
  const user = {
    email: `${role}.${Date.now()}.${++n}@e2e.example`,
    password: `${role} passphrase for e2e tests`,
  };
  const res = await api.post('/api/admin/users', { ...user, role });
  expect(res.status()).toBe(200);
  return user;
}

/** Where an opening is, in the job form: a country by its English name and a city. */
export async function fillPlace(dialog: Locator, country = 'India', city = 'Kochi') {
  await dialog.getByLabel('Country').selectOption({ label: country });
  await dialog.getByLabel('City or Region').fill(city);
}

/** An Open opening made through the owner's API (`ownerApi`), with valid texts; answers its id. */
export async function createOpeningByApi(
  api: Awaited<ReturnType<typeof ownerApi>>,
  request: APIRequestContext,
  title: string,
  location = 'Kochi, India',
): Promise<number> {
  const types = await (await request.get('/api/bind-job-types')).json();
  const res = await api.post('/api/manage-job-openings', {
    mode: 1,
    job_id: 0,
    status: 'Open',
    job_title: title,
    department: 'Editorial',
    location,
    job_type_id: types[0].job_type_id,
    work_type: 'onsite',
    country: 'IN',
    locality: 'Kochi',
    description: '<p>Edit manuscripts for clarity and house style.</p>',
    requirement: '<ul><li>Three years of copy editing.</li></ul>',
    about_role: '<p>You work with journal editors every day.</p>',
    responsibility: '<ul><li>Copy edit accepted papers on time.</li></ul>',
  });
  expect(res.status()).toBe(200);
  return (await res.json()).row.job_id as number;
}

/** One application through the public API (the careers page's own call), with a real PDF. */
export async function applyByApi(request: APIRequestContext, jobId: number, fullName: string, email: string) {
  const res = await request.post('/api/manage-job-applications', {
    headers: { 'idempotency-key': crypto.randomUUID() },
    multipart: {
      job_id: String(jobId),
      full_name: fullName,
      email,
      contact_number: '9876543210',
      address: '12 MG Road, Kochi',
      consent: 'true',
      resume: {
        name: `${fullName.replace(/[^A-Za-z0-9 ]+/g, '-')} CV.pdf`,
        mimeType: 'application/pdf',
        buffer: samplePdf(`${fullName} - CV`),
      },
    },
  });
  expect(res.status()).toBe(201);
}

/** The owner's API session (same-origin header) for creating posts as the admin screen does. */
export async function blogApi(request: APIRequestContext, baseURL: string) {
  const origin = new URL(baseURL).origin;
  const login = await request.post('/api/auth/login', { headers: { origin }, data: OWNER });
  expect(login.status()).toBe(200);
  // an image this site stored (a seeded post's key): no request leaves the test machine
  const [seeded] = (await (await request.get('/api/bind-company-blog?page_size=1')).json()) as {
    featured_image_url: string;
  }[];
  return {
    async create(fields: Record<string, string>) {
      const res = await request.post('/api/manage-company-blog', {
        headers: { origin },
        multipart: {
          mode: '1',
          company_id: '2',
          blog_id: '0',
          publication_date: 'August 6, 2025',
          read_time: '3 min read',
          featured_image_url: seeded.featured_image_url,
          cover_alt: 'A cover of the blog',
          status: 'Published',
          ...fields,
        },
      });
      expect(res.status(), await res.text()).toBe(200);
      return (await res.json()).row as { blog_id: number; slug: string; title: string };
    },
    async remove(blogId: number) {
      const res = await request.post('/api/manage-company-blog', {
        headers: { origin },
        multipart: { mode: '3', company_id: '2', blog_id: String(blogId) },
      });
      expect(res.status()).toBe(200);
    },
  };
}

/**
 * Makes the last full proof of `email`'s sessions on the suite's server 10 minutes old (its own
 * database), as if the person had signed in long ago: changes that need a fresh proof ask for it.
 */
export function ageProof(email: string) {
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, 'manna.sqlite'), { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000).toISOString();
    const aged = db
      .prepare(
        `update admin_session set proved_at = ? where proved_at is not null
           and user_id = (select user_id from admin_user where email = ?)`,
      )
      .run(tenMinutesAgo, email);
    expect(aged.changes).toBeGreaterThan(0);
  } finally {
    db.close();
  }
}
