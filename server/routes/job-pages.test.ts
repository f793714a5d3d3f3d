import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobIdOfSlug, jobSlug } from '../../contract/jobs';
import { createOpening, ensureJobType, setOpeningStatus, updateOpening, getOpening } from '../db/jobs.repo';
import { expectAnsweredOnce, fakeBuild } from '../lib/fake-build.testing';
import { createTestApp } from '../testing';

/**
 * An opening's own page (routes/job-pages.ts) with the stand-in build, on SQLite, and on
 * PostgreSQL when TEST_DATABASE_URL is set. The real page (JobPosting fields, the Apply modal,
 * both widths) is in tests/e2e/careers.spec.ts.
 */

let dist: string;
let dataDir: string;
let app: FastifyInstance;
let typeId: number;
/** What the server logged at warn and above. */
const logged: string[] = [];

const opening = (title: string) => ({
  job_title: title,
  department: 'Editorial',
  location: 'Kochi, India',
  job_type_id: typeId,
  description: '<p>Run the <b>night</b> desk</p>',
  about_role: '<p>About</p>',
  responsibility: '<ul><li>One</li></ul>',
  requirement: '<ul><li>Two</li></ul>',
});

beforeAll(async () => {
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'manna-fake-dist-'));
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'manna-job-pages-'));
  await fakeBuild(dist);
  app = await createTestApp(
    { DIST_DIR: dist, DATA_DIR: dataDir, PUBLIC_URL: 'https://www.manna.example', LOG_LEVEL: 'warn' },
    { write: (line: string) => void logged.push(line) },
  );
  typeId = (await ensureJobType(app.db, 'Full-time')).job_type_id;
});
afterAll(async () => {
  await app.close();
  await fs.rm(dist, { recursive: true, force: true });
  await fs.rm(dataDir, { recursive: true, force: true });
});

const pageData = (html: string) =>
  JSON.parse(
    /<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null',
  ) as {
    jobSlug: string;
    jobOpening: { job_id: number; job_title: string } | null;
  };

describe('the address of an opening', () => {
  it('is its number and its title in kebab case, accents dropped; the number alone finds it', () => {
    expect(jobSlug({ job_id: 12, job_title: 'Rédactrice en chef (m/f/d) — Berlin' })).toBe(
      '12-redactrice-en-chef-m-f-d-berlin',
    );
    expect(jobSlug({ job_id: 7, job_title: 'എഡിറ്റർ' })).toBe('7');
    expect(jobIdOfSlug('12-anything')).toBe(12);
    expect(jobIdOfSlug('12')).toBe(12);
    for (const bad of ['', 'x-12', '0', '12x', '2147483648', '99999999999999999999', '-1'])
      expect(jobIdOfSlug(bad)).toBeUndefined();
  });
});

describe('GET /careers/{id}-{title}', () => {
  it('renders an open opening with its head, its JSON-LD and its data for hydration', async () => {
    const job = await createOpening(app.db, opening('Night <Editor> & "Proofs"'));
    const slug = jobSlug(job);
    const res = await app.inject(`/careers/${slug}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-language']).toBe('en');
    expect(res.body).toContain(
      '<title>Night &lt;Editor&gt; &amp; &quot;Proofs&quot; | Careers at Manna</title>',
    );
    expect(res.body).toContain(`<link rel="canonical" href="https://www.manna.example/careers/${slug}" />`);
    expect(res.body).toContain(`"url":"https://www.manna.example/careers/${slug}"`);
    expect(res.body).toContain('data-preload="/assets/job.js"');
    const data = pageData(res.body);
    expect(data.jobSlug).toBe(slug);
    expect(data.jobOpening).toMatchObject({ job_id: job.job_id, job_title: job.job_title });
    // the public shape: no counts of applications
    expect(data.jobOpening).not.toHaveProperty('application_count');
    expect(data.jobOpening).not.toHaveProperty('total_count');
  });

  it('moves any other words after the number, a bare number and a trailing slash to the address now (301)', async () => {
    const job = await createOpening(app.db, opening('Copy Editor'));
    const now = `/careers/${job.job_id}-copy-editor`;
    for (const old of [`/careers/${job.job_id}`, `/careers/${job.job_id}-old-title`, `${now}/`]) {
      const res = await app.inject(old);
      expect(res.statusCode, old).toBe(301);
      expect(res.headers.location).toBe(now);
    }
    // renamed: the old address follows it
    await updateOpening(app.db, job.job_id, { ...opening('Senior Copy Editor') }, job.version!);
    const moved = await app.inject(now);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`/careers/${job.job_id}-senior-copy-editor`);
  });

  it('answers 410 for a closed opening and 404 for a draft or none, with the "no longer available" page', async () => {
    const closed = await createOpening(app.db, opening('Closed Role'));
    await setOpeningStatus(app.db, closed.job_id, 'Closed', closed.version!);
    const draft = await createOpening(app.db, opening('Draft Role'));
    await setOpeningStatus(app.db, draft.job_id, 'Draft', draft.version!);
    const cases: [string, number][] = [
      [`/careers/${jobSlug(closed)}`, 410],
      [`/careers/${jobSlug(draft)}`, 404],
      ['/careers/2147483647-nobody', 404],
      ['/careers/not-a-number', 404],
      ['/careers/0-zero', 404],
    ];
    for (const [url, status] of cases) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(status);
      expect(res.body, url).toContain('This opening is no longer available');
      expect(res.body).toContain('<meta name="robots" content="noindex" />');
      // the data names the asked address, so the browser hydrates the same state
      expect(pageData(res.body)).toEqual({ jobOpening: null, jobSlug: decodeURIComponent(url.slice(9)) });
      expect(res.body).not.toContain(closed.description);
    }
  });

  it('puts a hostile address into the missing page as data and escaped text, never as markup', async () => {
    const res = await app.inject('/careers/1%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).not.toContain('"><script');
  });

  it('revalidates with a 304, and shows the new version after an edit', async () => {
    const job = await createOpening(app.db, opening('Indexer'));
    const url = `/careers/${jobSlug(job)}`;
    const first = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
    expect(first.headers['content-encoding']).toBe('br');
    const etag = String(first.headers.etag);
    expect((await app.inject({ url, headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    await updateOpening(app.db, job.job_id, { ...opening('Indexer'), location: 'Remote, EU' }, job.version!);
    const after = await app.inject({ url, headers: { 'if-none-match': etag } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(pageData(after.body).jobOpening).toMatchObject({ location: 'Remote, EU' });
  });

  it('lists every open opening in the sitemap, never a closed or draft one', async () => {
    const open = await createOpening(app.db, opening('Sitemap Open'));
    const gone = await createOpening(app.db, opening('Sitemap Gone'));
    await setOpeningStatus(app.db, gone.job_id, 'Closed', gone.version!);
    const xml = (await app.inject('/sitemap-en.xml')).body;
    expect(xml).toContain(`<loc>https://www.manna.example/careers/${jobSlug(open)}</loc>`);
    expect(xml).not.toContain(`/careers/${jobSlug(gone)}<`);
    expect((await getOpening(app.db, gone.job_id))?.status).toBe('Closed');
  });

  it('leaves /careers/ to the careers page and deeper addresses to the 404 page', async () => {
    expect((await app.inject('/careers/')).body).toContain('<main class="careers">');
    const deeper = await app.inject('/careers/1-a/b');
    expect(deeper.statusCode).toBe(404);
    expect(deeper.body).toContain('Oops! Page not found');
  });
});

describe('/careers in the first HTML', () => {
  it('answers once, in every way it is asked (no "Reply was already sent")', async () => {
    await expectAnsweredOnce(app, logged, ['/careers', '/Careers', '/careers/', '/careers?utm_source=news']);
    expect((await app.inject('/careers?page=99')).statusCode).toBe(302);
    expect(logged.filter((l) => l.includes('already sent'))).toEqual([]);
  });

  const listData = (html: string) =>
    JSON.parse(/id="page-data">(.*?)<\/script>/s.exec(html)![1]) as {
      jobPage: number;
      jobRows: { job_id: number; job_title: string; status?: string; total_count?: number }[];
    };

  it('renders its page of open openings as page data (never a draft or a closed one), revalidated by ETag', async () => {
    const listed = await createOpening(app.db, opening('Listed Copy Editor'));
    const draft = await createOpening(app.db, opening('Unlisted Draft'));
    await setOpeningStatus(app.db, draft.job_id, 'Draft', draft.version!);
    const closed = await createOpening(app.db, opening('Closed Indexer'));
    await setOpeningStatus(app.db, closed.job_id, 'Closed', closed.version!);

    const res = await app.inject('/careers');
    expect(res.statusCode).toBe(200);
    const data = listData(res.body);
    expect(data.jobPage).toBe(1);
    const ids = data.jobRows.map((r) => r.job_id);
    expect(ids).toContain(listed.job_id);
    expect(ids).not.toContain(draft.job_id);
    expect(ids).not.toContain(closed.job_id);
    expect(data.jobRows.every((r) => (r.status ?? 'Open') === 'Open')).toBe(true);
    // the same rows as the API's first page, in its order
    const api = (await app.inject('/api/bind-job-openings?jobid=0&search=&pagenum=1&pagesize=20')).json() as {
      job_id: number;
    }[];
    expect(ids).toEqual(api.map((r) => r.job_id));
    // the cards are in the HTML itself, escaped
    expect(res.body).toContain('<li>Listed Copy Editor</li>');

    const etag = String(res.headers.etag);
    expect((await app.inject({ url: '/careers', headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    // a campaign link and another spelling get the same page
    for (const url of ['/careers?utm_source=jobs-board', '/Careers', '/careers/']) {
      expect((await app.inject(url)).headers.etag, url).toBe(etag);
    }
    // the service worker's precache keeps the prerendered copy, never one with data
    const precached = await app.inject({ url: '/careers', headers: { 'x-manna-precache': '1' } });
    expect(precached.body).toContain('<title>Careers</title>');
    expect(precached.body).not.toContain('page-data');
    // an edit is a new version of the list
    await updateOpening(
      app.db,
      listed.job_id,
      { ...opening('Listed Copy Editor'), location: 'Remote' },
      listed.version!,
    );
    const after = await app.inject({ url: '/careers', headers: { 'if-none-match': etag } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
  });

  it('renders a later page (?page=N) with its own rows; a page past the end moves to the first', async () => {
    for (let i = 0; i < 21; i++) await createOpening(app.db, opening(`Pager Opening ${i}`));
    const first = listData((await app.inject('/careers')).body);
    const second = listData((await app.inject('/careers?page=2')).body);
    expect(first.jobRows).toHaveLength(20);
    expect(second.jobPage).toBe(2);
    expect(second.jobRows.length).toBeGreaterThan(0);
    expect(second.jobRows.map((r) => r.job_id).some((id) => first.jobRows.some((r) => r.job_id === id))).toBe(
      false,
    );
    // past the last page (an old link): the first page, said so in the address, the other words kept
    const past = await app.inject('/careers?page=999&utm_source=old-link');
    expect(past.statusCode).toBe(302);
    expect(past.headers.location).toBe('/careers?utm_source=old-link');
    // a page number that is not one is the first page
    expect(listData((await app.inject('/careers?page=-3')).body).jobPage).toBe(1);
  });
});
