import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobIdOfSlug, jobSlug } from '../../src/api/contract/jobs';
import { createOpening, ensureJobType, setOpeningStatus, updateOpening, getOpening } from '../db/jobs.repo';
import { fakeBuild } from '../lib/fake-build.testing';
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
  app = await createTestApp({ DIST_DIR: dist, DATA_DIR: dataDir, PUBLIC_URL: 'https://www.manna.example' });
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
    const xml = (await app.inject('/sitemap.xml')).body;
    expect(xml).toContain(`<loc>https://www.manna.example/careers/${jobSlug(open)}</loc>`);
    expect(xml).not.toContain(`/careers/${jobSlug(gone)}<`);
    expect((await getOpening(app.db, gone.job_id))?.status).toBe('Closed');
  });

  it('leaves /careers/ to the careers page and deeper addresses to the 404 page', async () => {
    expect((await app.inject('/careers/')).body).toContain('<title>Careers</title>');
    const deeper = await app.inject('/careers/1-a/b');
    expect(deeper.statusCode).toBe(404);
    expect(deeper.body).toContain('Oops! Page not found');
  });
});
