import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_STATUSES, type ApplicationListRow } from '../../contract/admin-applications';
import { addApplication, addOpening } from '../db/application-list.testing';
import { csvCell } from '../lib/csv';
import { deleteOpening, updateOpening } from '../db/jobs.repo';
import { signInAs } from '../lib/auth-testing';
import { SIGNED_URL_TTL_SECONDS } from '../lib/signed-url';
import { createTestApp } from '../testing';

/**
 * The admin's job applications: list with every parameter, status, deletion with the CV,
 * CSV export, and the CV's signed address, each with its permission and the bad inputs of the
 * issue (SQL and full-text syntax, impossible dates, pages 0 / -1 / 1e9, unknown ids and keys).
 */

let app: FastifyInstance;
let reader: Record<string, string>;
let manager: Record<string, string>;
let editorJob: number;
let engineerJob: number;
const ids: Record<string, number> = {};
const keys: Record<string, string> = {};

const day = (iso: string) => new Date(iso);

beforeAll(async () => {
  app = await createTestApp();
  reader = (await signInAs(app, { permissions: ['applications.read'] })).headers;
  manager = (await signInAs(app, { permissions: ['applications.read', 'applications.manage'] })).headers;
  editorJob = await addOpening(app, 'Copy Editor');
  engineerJob = await addOpening(app, 'Platform Engineer');
  const goneJob = await addOpening(app, 'Archivist');
  const seed: [string, number | null, string, string, string, string][] = [
    ['asha', editorJob, 'Asha Menon', 'asha.menon@example.com', '9876543210', '2025-03-01T09:00:00.000Z'],
    ['ravi', engineerJob, 'Ravi Kumar', 'ravi@mailbox.in', '9123456780', '2025-03-02T23:59:59.999Z'],
    ['meera', editorJob, 'Meera Nair', 'meera.nair@example.com', '9000011111', '2025-03-03T00:00:00.000Z'],
    ['asha2', editorJob, 'Asha Menon', 'Asha.Menon@example.com', '9876543210', '2025-03-04T10:00:00.000Z'],
    ['old', goneJob, 'Joseph Thomas', 'joseph@example.org', '9988776655', '2025-02-10T12:00:00.000Z'],
  ];
  for (const [tag, jobId, name, email, number, at] of seed) {
    const { application_id, key } = await addApplication(app, { jobId, name, email, number, at: day(at) });
    ids[tag] = application_id;
    keys[tag] = key;
  }
  await deleteOpening(app.db, goneJob); // its application stays, and keeps the title 'Archivist'
});
afterAll(() => app.close());

const list = (query: string, headers = reader) =>
  app.inject({ method: 'GET', url: `/api/bind-job-applications?${query}`, headers });
const names = (rows: ApplicationListRow[]) => rows.map((r) => r.full_name);
const idsOf = (rows: ApplicationListRow[]) => rows.map((r) => r.application_id);

describe('GET /api/bind-job-applications', () => {
  it('needs applications.read: 401 signed out, 403 without it', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/bind-job-applications' })).statusCode).toBe(401);
    const other = await signInAs(app, { permissions: ['messages.read', 'blog.manage'] });
    expect((await list('', other.headers)).statusCode).toBe(403);
  });

  it('answers the newest first with the spec fields, total_count on the first row and no caching', async () => {
    const res = await list('search=&applicationid=0&pagenum=1&pagesize=20&startdate=&enddate=');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const rows = res.json<ApplicationListRow[]>();
    expect(idsOf(rows)).toEqual([ids.asha2, ids.meera, ids.ravi, ids.asha, ids.old]);
    expect(rows[0]).toMatchObject({
      application_id: ids.asha2,
      job_id: editorJob,
      full_name: 'Asha Menon',
      email: 'asha.menon@example.com',
      contact_number: '9876543210',
      address: '12 MG Road, Kochi',
      job_title: 'Copy Editor',
      applied_date: '2025-03-04T10:00:00.000Z',
      resume: keys.asha2,
      status: 'New',
      is_duplicate: true,
      consent_at: '2025-03-04T10:00:00.000Z',
      total_count: 5,
    });
    expect(rows[1].total_count).toBeUndefined();
    expect(rows.find((r) => r.application_id === ids.asha)?.is_duplicate).toBe(false);
  });

  it('keeps the title of the job applied for when the opening was deleted', async () => {
    const rows = (await list(`applicationid=${ids.old}`)).json<ApplicationListRow[]>();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ full_name: 'Joseph Thomas', job_id: null, job_title: 'Archivist' });
  });

  it('pages with pagenum and pagesize; a page past the end is empty', async () => {
    const first = (await list('pagenum=1&pagesize=2')).json<ApplicationListRow[]>();
    const second = (await list('pagenum=2&pagesize=2')).json<ApplicationListRow[]>();
    const third = (await list('pagenum=3&pagesize=2')).json<ApplicationListRow[]>();
    expect(idsOf(first)).toEqual([ids.asha2, ids.meera]);
    expect(idsOf(second)).toEqual([ids.ravi, ids.asha]);
    expect(idsOf(third)).toEqual([ids.old]);
    expect([first[0].total_count, second[0].total_count, third[0].total_count]).toEqual([5, 5, 5]);
    expect((await list('pagenum=4&pagesize=2')).json()).toEqual([]);
  });

  it('searches name, any part of the email, the number and the job title, as word prefixes', async () => {
    const search = async (s: string) => names((await list(`search=${encodeURIComponent(s)}`)).json());
    expect(await search('meera')).toEqual(['Meera Nair']);
    expect(await search('Nai')).toEqual(['Meera Nair']);
    expect(await search('mailbox')).toEqual(['Ravi Kumar']);
    expect(await search('ravi@mailbox.in')).toEqual(['Ravi Kumar']);
    expect(await search('91234')).toEqual(['Ravi Kumar']);
    expect(await search('platform')).toEqual(['Ravi Kumar']);
    expect(await search('copy editor')).toEqual(['Asha Menon', 'Meera Nair', 'Asha Menon']);
    // words may come from different fields
    expect(await search('asha editor')).toEqual(['Asha Menon', 'Asha Menon']);
    expect(await search('nobody-here')).toEqual([]);
    const withCount = (await list('search=asha')).json<ApplicationListRow[]>();
    expect(withCount[0].total_count).toBe(2);
  });

  it('follows a renamed opening in the search', async () => {
    await updateOpening(
      app.db,
      engineerJob,
      {
        job_title: 'Platform Architect',
        department: 'Engineering',
        location: 'Chennai, India',
        job_type_id: 1,
        description: '<p>Design the platform and its services.</p>',
        requirement: '<ul><li>TypeScript</li></ul>',
        about_role: '<p>About the role here.</p>',
        responsibility: '<ul><li>Ship it well</li></ul>',
      },
      1,
    );
    expect(names((await list('search=architect')).json())).toEqual(['Ravi Kumar']);
    expect(names((await list('search=engineer')).json())).toEqual([]);
  });

  it('treats SQL and full-text syntax as plain words, never as an error', async () => {
    const hostile = [
      `' OR 1=1 --`,
      `"; DROP TABLE job_application; --`,
      `asha"`,
      `NEAR(asha meera)`,
      `full_name:asha`,
      `asha OR meera`,
      `-asha`,
      `^asha*`,
      `asha & !meera | (x:*)`,
      `\\x00%_`,
      '"',
      '*',
      '())((',
    ];
    for (const s of hostile) {
      const res = await list(`search=${encodeURIComponent(s)}`);
      expect(res.statusCode, s).toBe(200);
    }
    expect(names((await list(`search=${encodeURIComponent('full_name:asha')}`)).json())).toEqual([]);
    expect(names((await list(`search=${encodeURIComponent('"asha"')}`)).json())).toEqual([
      'Asha Menon',
      'Asha Menon',
    ]);
    expect((await list(`search=${'a'.repeat(201)}`)).statusCode).toBe(400);
  });

  it('filters by an inclusive range of UTC days', async () => {
    const range = async (q: string) => idsOf((await list(q)).json());
    expect(await range('startdate=2025-03-02&enddate=2025-03-02')).toEqual([ids.ravi]); // 23:59:59.999 is in
    expect(await range('startdate=2025-03-03&enddate=2025-03-03')).toEqual([ids.meera]); // 00:00 of the next day is not
    expect(await range('startdate=2025-03-02&enddate=2025-03-03')).toEqual([ids.meera, ids.ravi]);
    expect(await range('startdate=2025-03-03')).toEqual([ids.asha2, ids.meera]);
    expect(await range('enddate=2025-03-01')).toEqual([ids.asha, ids.old]);
    expect(await range('startdate=2025-03-01&enddate=2025-03-31&search=asha')).toEqual([ids.asha2, ids.asha]);
    expect(await range('startdate=2024-02-29&enddate=2024-02-29')).toEqual([]); // a real leap day
  });

  it('refuses a start after the end with a message (400)', async () => {
    const res = await list('startdate=2025-03-05&enddate=2025-03-01');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Start Date must be on or before End Date',
      errors: { startdate: 'Start Date must be on or before End Date' },
    });
  });

  it('refuses dates that are not real YYYY-MM-DD days (400 naming the field)', async () => {
    for (const [field, value] of [
      ['startdate', '2025-02-30'],
      ['enddate', '2025-02-29'],
      ['startdate', 'yesterday'],
      ['enddate', '2025-2-3'],
      ['startdate', '20250101'],
      ['enddate', '2025-13-01'],
      ['startdate', '2025-03-01T00:00'],
      ['enddate', "2025-03-01' OR '1'='1"],
    ]) {
      const res = await list(`${field}=${encodeURIComponent(value)}`);
      expect(res.statusCode, `${field}=${value}`).toBe(400);
      expect(Object.keys(res.json().errors), value).toContain(field);
    }
  });

  it('refuses page 0, -1, 1e9, 1.5 and words, and page sizes outside 1-100 (400)', async () => {
    for (const q of [
      'pagenum=0',
      'pagenum=-1',
      'pagenum=1e9',
      'pagenum=1.5',
      'pagenum=two',
      'pagesize=0',
      'pagesize=101',
      'pagesize=-5',
    ]) {
      const res = await list(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().errors, q).toBeDefined();
    }
  });

  it('finds one application by applicationid; an unknown one is 404, a malformed one 400', async () => {
    const rows = (await list(`applicationid=${ids.meera}`)).json<ApplicationListRow[]>();
    expect(names(rows)).toEqual(['Meera Nair']);
    expect(rows[0].total_count).toBe(1);
    const missing = await list('applicationid=999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Application not found' });
    for (const q of ['applicationid=-1', 'applicationid=abc', 'applicationid=1e12'])
      expect((await list(q)).statusCode, q).toBe(400);
  });

  it('filters by opening (job_id), alone and with the other filters; a malformed one is 400', async () => {
    expect(idsOf((await list(`job_id=${editorJob}`)).json<ApplicationListRow[]>())).toEqual([
      ids.asha2,
      ids.meera,
      ids.asha,
    ]);
    const editorRows = (await list(`job_id=${editorJob}&pagesize=1`)).json<ApplicationListRow[]>();
    expect(editorRows[0].total_count).toBe(3);
    expect(names((await list(`job_id=${editorJob}&search=meera`)).json())).toEqual(['Meera Nair']);
    expect(idsOf((await list(`job_id=${engineerJob}&status=New`)).json())).toEqual([ids.ravi]);
    expect((await list(`job_id=${engineerJob}&status=Hired`)).json()).toEqual([]);
    expect(idsOf((await list('job_id=0')).json())).toHaveLength(5); // 0: every opening
    for (const q of ['job_id=-1', 'job_id=abc', 'job_id=1.5', 'job_id=2147483648'])
      expect((await list(q)).statusCode, q).toBe(400);
    const exported = await app.inject({
      method: 'GET',
      url: `/api/admin/job-applications/export.csv?job_id=${engineerJob}`,
      headers: reader,
    });
    const csv = exported.body.split('\r\n').filter(Boolean);
    expect(csv).toHaveLength(2);
    expect(csv[1]).toMatch(new RegExp(`^${ids.ravi},Ravi Kumar,`));
  });

  it('filters by status; an unknown status is 400', async () => {
    expect((await list('status=New')).json<ApplicationListRow[]>()[0].total_count).toBe(5);
    expect((await list('status=Hired')).json()).toEqual([]);
    expect((await list('status=Sleeping')).statusCode).toBe(400);
  });
});

describe('POST /api/admin/job-applications/{id}/status', () => {
  /** The version a person read: the application's current one unless the test names another. */
  const versionOf = async (id: number | string) =>
    (
      await app.db
        .selectFrom('job_application')
        .select('version')
        .where('application_id', '=', Number(id) || 0)
        .executeTakeFirst()
    )?.version ?? 1;
  const setStatus = async (id: number | string, body: unknown, headers = manager, version?: number | null) =>
    app.inject({
      method: 'POST',
      url: `/api/admin/job-applications/${id}/status`,
      headers:
        version === null ? headers : { ...headers, 'if-match': `"${version ?? (await versionOf(id))}"` },
      payload: body as object,
    });

  it('changes the status, answers the row and records who changed what', async () => {
    const res = await setStatus(ids.meera, { status: 'Interview' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Status updated',
      row: { application_id: ids.meera, status: 'Interview' },
    });
    expect(idsOf((await list('status=Interview')).json())).toEqual([ids.meera]);
    const audit = await app.db.selectFrom('audit_log').selectAll().where('action', '=', 'status').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ entity: 'job_application', entity_id: String(ids.meera) });
    expect(JSON.parse(audit[0].detail!)).toEqual({ from: 'New', to: 'Interview' });
  });

  it('accepts every status of the list', async () => {
    for (const status of APPLICATION_STATUSES)
      expect((await setStatus(ids.asha, { status })).statusCode, status).toBe(200);
    await setStatus(ids.asha, { status: 'New' });
  });

  it('refuses an unknown status, a missing body and a malformed id (400); an unknown id is 404', async () => {
    expect((await setStatus(ids.meera, { status: 'Maybe' })).statusCode).toBe(400);
    expect((await setStatus(ids.meera, {})).statusCode).toBe(400);
    expect((await setStatus('abc', { status: 'New' })).statusCode).toBe(400);
    expect((await setStatus('0', { status: 'New' })).statusCode).toBe(400);
    const missing = await setStatus(999999, { status: 'New' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Application not found');
  });

  it('is based on the version read: 428 without it, 409 with the application as it is now when it moved meanwhile', async () => {
    expect((await setStatus(ids.ravi, { status: 'Reviewed' }, manager, null)).statusCode).toBe(428);
    const read = await versionOf(ids.ravi);
    expect((await setStatus(ids.ravi, { status: 'Reviewed' }, manager, read)).statusCode).toBe(200);
    // a colleague's page, read before that change, moves it elsewhere
    const late = await setStatus(ids.ravi, { status: 'Rejected' }, manager, read);
    expect(late.statusCode).toBe(409);
    expect(late.json().current).toMatchObject({
      application_id: ids.ravi,
      status: 'Reviewed',
      version: read + 1,
    });
    expect(late.json().changed_by).toMatch(/@/);
    // the same choice as the colleague's is no conflict: nothing changes, nothing is audited twice
    expect((await setStatus(ids.ravi, { status: 'Reviewed' }, manager, read)).statusCode).toBe(200);
    expect((await setStatus(ids.ravi, { status: 'New' }, manager, read + 1)).statusCode).toBe(200);
  });

  it('needs applications.manage (read alone is 403) and a same-origin request', async () => {
    expect((await setStatus(ids.meera, { status: 'Offer' }, { origin: manager.origin })).statusCode).toBe(
      401,
    );
    expect((await setStatus(ids.meera, { status: 'Offer' }, reader)).statusCode).toBe(403);
    const crossSite = { ...manager, origin: 'https://evil.example' };
    expect((await setStatus(ids.meera, { status: 'Offer' }, crossSite)).statusCode).toBe(403);
  });
});

describe('the CV of an application through GetPresignedUrl', () => {
  const presign = (key: string, headers: Record<string, string> = reader) =>
    app.inject({ method: 'GET', url: `/api/GetPresignedUrl?s3_key=${encodeURIComponent(key)}`, headers });

  it('answers a signed address for applications.read that expires within 5 minutes and shows a PDF inline', async () => {
    expect((await presign(keys.ravi, {})).statusCode).toBe(401);
    expect(
      (await presign(keys.ravi, (await signInAs(app, { permissions: ['blog.manage'] })).headers)).statusCode,
    ).toBe(403);
    const res = await presign(keys.ravi);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const url = new URL(res.json<{ url: string }>().url, 'http://localhost');
    const expires = Number(url.searchParams.get('expires'));
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(SIGNED_URL_TTL_SECONDS);
    expect(expires - Date.now() / 1000).toBeGreaterThan(SIGNED_URL_TTL_SECONDS - 30);
    const file = await app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toMatch(/^inline; filename="Ravi Kumar CV.pdf"/);
    // the browser's own PDF viewer may run (no `sandbox`), nothing else may load or run
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['cache-control']).toBe('no-store');
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // the same path with a forged signature is not served
    const forged = await app.inject({
      method: 'GET',
      url: `${url.pathname}?expires=${expires}&sig=${'A'.repeat(43)}`,
    });
    expect(forged.statusCode).toBe(404);
  });

  it('answers 404 for unknown keys and a 4xx for keys that climb out with ../', async () => {
    expect((await presign('cv/00000000-0000-4000-8000-000000000000.pdf')).statusCode).toBe(404);
    for (const key of [
      '../secret',
      'cv/../../data/manna.sqlite',
      `${keys.ravi}/../../secret`,
      '..%2f..%2fsecret',
      '/etc/passwd',
    ]) {
      const res = await presign(key);
      expect(res.statusCode, key).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, key).toBeLessThan(500);
    }
    expect(
      (await app.inject({ method: 'GET', url: '/api/GetPresignedUrl', headers: reader })).statusCode,
    ).toBe(400);
  });
});

describe('GET /api/admin/job-applications/export.csv', () => {
  const exportCsv = (query = '', headers = reader) =>
    app.inject({ method: 'GET', url: `/api/admin/job-applications/export.csv?${query}`, headers });
  const csvRows = (body: string) =>
    body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);

  it('needs applications.read', async () => {
    expect((await exportCsv('', {})).statusCode).toBe(401);
    expect(
      (await exportCsv('', (await signInAs(app, { permissions: ['messages.read'] })).headers)).statusCode,
    ).toBe(403);
  });

  it('sends every matching row as a CSV attachment, newest first, with the filters of the list', async () => {
    const res = await exportCsv();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="job-applications-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    const lines = csvRows(res.body);
    expect(lines[0]).toBe(
      'application_id,full_name,email,contact_number,address,job_title,applied_date,status,is_duplicate,consent_at,notes',
    );
    expect(lines).toHaveLength(6);
    expect(lines.at(-1)).toBe(
      `${ids.old},Joseph Thomas,joseph@example.org,9988776655,"12 MG Road, Kochi",Archivist,2025-02-10T12:00:00.000Z,New,no,2025-02-10T12:00:00.000Z,`,
    );
    const filtered = csvRows((await exportCsv('search=asha&startdate=2025-03-04&enddate=2025-03-04')).body);
    expect(filtered).toHaveLength(2);
    expect(filtered[1]).toMatch(
      new RegExp(
        `^${ids.asha2},Asha Menon,asha.menon@example.com,9876543210,"12 MG Road, Kochi",Copy Editor,.*,yes,`,
      ),
    );
    const audit = await app.db
      .selectFrom('audit_log')
      .select(['action', 'entity'])
      .where('action', '=', 'export')
      .execute();
    expect(audit.length).toBeGreaterThanOrEqual(2);
  });

  it('escapes cells that a spreadsheet would run as formulas, and quotes commas and quotes', async () => {
    const hostile = [
      ['=HYPERLINK("http://evil.example","CV")', 'eq@example.com'],
      ['+91 Plus', 'plus@example.com'],
      ['-2+3 Minus', 'minus@example.com'],
      ['@SUM(A1) At', 'at@example.com'],
      ['Menon, Asha "AM"', 'comma@example.com'],
      ['\t=1+1 Tab', 'tab@example.com'],
      ['\r=1+1 Return', 'return@example.com'],
    ];
    for (const [name, email] of hostile)
      await addApplication(app, { jobId: editorJob, name, email, at: day('2025-04-01T00:00:00.000Z') });
    const lines = csvRows((await exportCsv('startdate=2025-04-01&enddate=2025-04-01')).body);
    const joined = lines.join('\n');
    expect(joined).toContain(`,"'=HYPERLINK(""http://evil.example"",""CV"")",eq@example.com,`);
    expect(joined).toContain(`,'+91 Plus,plus@example.com,`);
    expect(joined).toContain(`,'-2+3 Minus,minus@example.com,`);
    expect(joined).toContain(`,'@SUM(A1) At,at@example.com,`);
    expect(joined).toContain(`,"Menon, Asha ""AM""",comma@example.com,`);
    // a name sent with a leading tab or carriage return is stored trimmed, and still defused
    expect(joined).toContain(`,'=1+1 Tab,tab@example.com,`);
    expect(joined).toContain(`,'=1+1 Return,return@example.com,`);
    // a cell that does start with one (which some spreadsheets skip before a formula) is defused
    // too, and a carriage return makes the cell quoted
    expect(csvCell('\t=1+1')).toBe(`'\t=1+1`);
    expect(csvCell('\r=1+1')).toBe(`"'\r=1+1"`);
    expect(csvCell('\tplain')).toBe(`'\tplain`);
    for (const line of lines.slice(1)) expect(line).not.toMatch(/(^|,)"?[=+\-@\t\r]/);
  });

  it('refuses the bad filters of the list (400)', async () => {
    expect((await exportCsv('startdate=2025-03-05&enddate=2025-03-01')).statusCode).toBe(400);
    expect((await exportCsv('startdate=2025-02-30')).statusCode).toBe(400);
    expect((await exportCsv('status=Asleep')).statusCode).toBe(400);
  });
});

describe('DELETE /api/admin/job-applications/{id}', () => {
  const del = (id: number | string, headers = manager) =>
    app.inject({ method: 'DELETE', url: `/api/admin/job-applications/${id}`, headers });

  it('needs applications.manage', async () => {
    expect((await del(ids.ravi, { origin: manager.origin })).statusCode).toBe(401);
    expect((await del(ids.ravi, reader)).statusCode).toBe(403);
    expect((await del(ids.ravi, { ...manager, origin: 'https://evil.example' })).statusCode).toBe(403);
  });

  it('removes the row, the file record and the file; the audit keeps only that a deletion happened', async () => {
    expect(await app.storage.exists(keys.ravi)).toBe(true);
    const res = await del(ids.ravi);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Application and CV deleted' });
    expect(await app.storage.exists(keys.ravi)).toBe(false);
    expect(
      await app.db
        .selectFrom('job_application')
        .select('application_id')
        .where('application_id', '=', ids.ravi)
        .execute(),
    ).toEqual([]);
    expect(
      await app.db.selectFrom('stored_file').select('file_key').where('file_key', '=', keys.ravi).execute(),
    ).toEqual([]);
    expect((await list(`applicationid=${ids.ravi}`)).statusCode).toBe(404);
    expect(names((await list('search=ravi')).json())).toEqual([]);
    expect(
      (await app.inject({ method: 'GET', url: `/api/GetPresignedUrl?s3_key=${keys.ravi}`, headers: reader }))
        .statusCode,
    ).toBe(404);
    const audit = await app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'delete')
      .where('entity', '=', 'job_application')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].entity_id).toBeNull();
    expect(audit[0].detail).toBeNull();
    const everything = JSON.stringify(await app.db.selectFrom('audit_log').selectAll().execute());
    expect(everything).not.toContain('Ravi');
    expect(everything).not.toContain('mailbox');
    expect(everything).not.toContain(keys.ravi);
    if (app.dialect === 'sqlite') {
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from job_application_fts where rowid = ${ids.ravi}`.execute(app.db);
      expect(Number(rows[0].n)).toBe(0);
    }
  });

  it('answers 404 the second time, and 400 for a malformed id', async () => {
    expect((await del(ids.ravi)).statusCode).toBe(404);
    expect((await del('1e3')).statusCode).toBe(400);
  });
});

describe('the count cap', () => {
  it('counts exactly up to 10,000 and says 10000 above that', async () => {
    const capApp = await createTestApp();
    try {
      const jobId = await addOpening(capApp, 'Proofreader');
      const { headers } = await signInAs(capApp, { role: 'recruiter' });
      await capApp.db
        .insertInto('stored_file')
        .values({
          file_key: 'cv/00000000-0000-4000-8000-000000000001.pdf',
          kind: 'cv',
          content_type: 'application/pdf',
          byte_size: 1,
          original_name: 'x.pdf',
          created_at: '2025-01-01T00:00:00.000Z',
        })
        .execute();
      const rows = Array.from({ length: 10_005 }, (_, i) => ({
        job_id: jobId,
        full_name: `Candidate ${i}`,
        email: `c${i}@example.com`,
        contact_number: String(9000000000 + i),
        address: 'Somewhere',
        resume: 'cv/00000000-0000-4000-8000-000000000001.pdf',
        consent_at: '2025-01-01T00:00:00.000Z',
        created_at: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
      }));
      for (let i = 0; i < rows.length; i += 500)
        await capApp.db
          .insertInto('job_application')
          .values(rows.slice(i, i + 500))
          .execute();
      const all = await capApp.inject({ method: 'GET', url: '/api/bind-job-applications', headers });
      expect(all.json<ApplicationListRow[]>()[0]).toMatchObject({
        full_name: 'Candidate 10004',
        total_count: 10_000,
      });
      const some = await capApp.inject({
        method: 'GET',
        url: '/api/bind-job-applications?search=candidate&enddate=2025-01-01',
        headers,
      });
      expect(some.json<ApplicationListRow[]>()[0].total_count).toBe(1440);
      const csv = await capApp.inject({
        method: 'GET',
        url: '/api/admin/job-applications/export.csv',
        headers,
      });
      expect(csv.body.split('\r\n').filter(Boolean)).toHaveLength(10_006); // header + every row, past the cap
    } finally {
      await capApp.close();
    }
  }, 60_000);
});
