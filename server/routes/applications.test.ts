import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPLICATION_MESSAGES as M, RESUME_MAX_BYTES } from '../../contract/applications';
import {
  lyingZipBombDocx,
  manyEntriesDocx,
  pdfOfSize,
  sampleDoc,
  sampleDocx,
  sampleExe,
  samplePdf,
  hostilePdfs,
  zipBombDocx,
} from '../../tests/fixtures/files';
import { multipart, type Part } from '../../tests/fixtures/multipart';
import { countApplications } from '../db/applications.repo';
import { createOpening, ensureJobType } from '../db/jobs.repo';
import { createTestApp } from '../testing';

const URL_ = '/api/manage-job-applications';

async function addOpening(app: FastifyInstance, title = 'Senior Full-Stack Engineer') {
  const type = await ensureJobType(app.db, 'Full-time');
  const row = await createOpening(app.db, {
    job_title: title,
    department: 'Engineering',
    location: 'Chennai, India',
    job_type_id: type.job_type_id,
    description: '<p>Build things.</p>',
    requirement: '<ul><li>TypeScript</li></ul>',
    about_role: '<p>About.</p>',
    responsibility: '<ul><li>Ship</li></ul>',
  });
  return row.job_id;
}

type Fields = Record<string, string | undefined>;
const validFields = (jobId: number): Fields => ({
  job_id: String(jobId),
  full_name: 'Asha Menon',
  email: 'asha.menon@example.com',
  contact_number: '9876543210',
  address: '12 MG Road, Kochi, Kerala',
  consent: 'true',
});

function formOf(fields: Fields, file: Omit<Extract<Part, { filename: string }>, 'name'> | null) {
  const parts: Part[] = Object.entries(fields)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([name, value]) => ({ name, value }));
  if (file) parts.push({ name: 'resume', ...file });
  return multipart(parts);
}

const pdfFile = () => ({ filename: 'Asha Menon CV.pdf', type: 'application/pdf', data: samplePdf() });

function post(
  app: FastifyInstance,
  fields: Fields,
  file: Parameters<typeof formOf>[1] = pdfFile(),
  headers = {},
) {
  const { body, contentType } = formOf(fields, file);
  return app.inject({
    method: 'POST',
    url: URL_,
    payload: body,
    headers: { 'content-type': contentType, ...headers },
  });
}

/** Everything the storage and the uploads folder hold, besides its own temp folder. */
function filesOnDisk(app: FastifyInstance): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(path.relative(app.config.DATA_DIR, full));
    }
  };
  walk(path.join(app.config.DATA_DIR, 'files'));
  walk(path.join(app.config.DATA_DIR, 'uploads'));
  return out;
}

async function expectNothingStored(app: FastifyInstance) {
  expect(await countApplications(app.db)).toBe(0);
  expect(await app.db.selectFrom('stored_file').selectAll().execute()).toEqual([]);
  expect(filesOnDisk(app)).toEqual([]);
}

describe('POST manage-job-applications', () => {
  let app: FastifyInstance;
  let jobId: number;

  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT_PUBLIC_PER_MIN: '100000' });
  });
  afterAll(() => app.close());
  beforeEach(async () => {
    jobId = await addOpening(app);
  });
  afterEach(async () => {
    for (const key of (await app.db.selectFrom('stored_file').select('file_key').execute()).map(
      (r) => r.file_key,
    )) {
      await app.storage.delete(key);
    }
    await app.db.deleteFrom('job_application').execute();
    await app.db.deleteFrom('stored_file').execute();
    await app.db.deleteFrom('idempotency_key').execute();
    await app.db.deleteFrom('job_opening').execute();
  });

  it('stores a valid application with a real PDF: row, file row and file, and answers { Message }', async () => {
    const res = await post(app, validFields(jobId));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      Message: 'Application submitted successfully!',
      application_id: expect.any(Number),
    });
    const row = await app.db
      .selectFrom('job_application')
      .selectAll()
      .where('application_id', '=', body.application_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      job_id: jobId,
      full_name: 'Asha Menon',
      email: 'asha.menon@example.com',
      // E.164: the ten Indian digits of the spec's form, with India's +91
      contact_number: '+919876543210',
      address: '12 MG Road, Kochi, Kerala',
      status: 'New',
      is_duplicate: 0,
      idempotency_key: null,
    });
    expect(row.resume).toMatch(/^cv\/[0-9a-f-]{36}\.pdf$/);
    expect(Date.now() - Date.parse(row.consent_at)).toBeLessThan(10_000);
    expect(await app.storage.exists(row.resume)).toBe(true);
    const stored = await app.storage.get(row.resume);
    const chunks: Buffer[] = [];
    for await (const chunk of stored!.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(samplePdf())).toBe(true);
    expect(await app.db.selectFrom('stored_file').selectAll().executeTakeFirst()).toMatchObject({
      file_key: row.resume,
      kind: 'cv',
      content_type: 'application/pdf',
      byte_size: samplePdf().length,
      original_name: 'Asha Menon CV.pdf',
    });
    expect(filesOnDisk(app)).toEqual([path.join('files', row.resume)]);
  });

  it('accepts DOC and DOCX by content and stores them with their own extension', async () => {
    const doc = await post(app, validFields(jobId), {
      filename: 'cv.doc',
      type: 'application/msword',
      data: sampleDoc(),
    });
    const docx = await post(app, validFields(jobId), { filename: 'cv.docx', data: sampleDocx() });
    expect([doc.statusCode, docx.statusCode]).toEqual([201, 201]);
    const keys = (
      await app.db.selectFrom('job_application').select('resume').orderBy('application_id').execute()
    ).map((r) => r.resume);
    expect(keys[0]).toMatch(/\.doc$/);
    expect(keys[1]).toMatch(/\.docx$/);
  });

  it('accepts a PDF declared as image/png and named .png: the content decides', async () => {
    const res = await post(app, validFields(jobId), {
      filename: 'scan.png',
      type: 'image/png',
      data: samplePdf(),
    });
    expect(res.statusCode).toBe(201);
    const file = await app.db.selectFrom('stored_file').selectAll().executeTakeFirstOrThrow();
    expect(file.content_type).toBe('application/pdf');
    expect(file.file_key).toMatch(/\.pdf$/);
  });

  it('accepts a CV of exactly 5 MB', async () => {
    const res = await post(app, validFields(jobId), {
      filename: 'big.pdf',
      data: pdfOfSize(RESUME_MAX_BYTES),
    });
    expect(res.statusCode).toBe(201);
  });

  const missing: Array<[string, string]> = [
    ['full_name', 'Name is required'],
    ['email', 'Email is required'],
    ['contact_number', 'Contact is required'],
    ['address', 'Address is required'],
    ['consent', 'Please confirm that we may use your data for recruiting'],
    ['job_id', 'Choose a job opening'],
  ];
  for (const [field, message] of missing) {
    it(`refuses a missing ${field} with "${message}" and stores nothing`, async () => {
      const res = await post(app, { ...validFields(jobId), [field]: undefined });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual({ [field]: message });
      // the code the translated form shows its own text for
      const code = Object.entries(M).find(([, text]) => text === message)![0];
      expect(res.json().codes).toEqual({ [field]: code });
      await expectNothingStored(app);
    });
    it(`refuses a blank ${field}`, async () => {
      const res = await post(app, { ...validFields(jobId), [field]: '   ' });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[field]).toBeTruthy();
      await expectNothingStored(app);
    });
  }

  it('refuses a missing resume with "Resume is required"', async () => {
    const res = await post(app, validFields(jobId), null);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ resume: 'Resume is required' });
    const empty = await post(app, validFields(jobId), { filename: '', data: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual({ resume: 'Resume is required' });
    await expectNothingStored(app);
  });

  it('reports every field error at once', async () => {
    const res = await post(app, { job_id: String(jobId), email: 'nope' }, null);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      full_name: 'Name is required',
      email: 'Invalid email',
      contact_number: 'Contact is required',
      address: 'Address is required',
      consent: 'Please confirm that we may use your data for recruiting',
      resume: 'Resume is required',
    });
  });

  for (const email of [
    'asha',
    'asha@',
    '@example.com',
    'asha@example',
    'asha menon@example.com',
    'a@b@c.com',
  ]) {
    it(`refuses the email "${email}" with "Invalid email"`, async () => {
      const res = await post(app, { ...validFields(jobId), email });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual({ email: 'Invalid email' });
      await expectNothingStored(app);
    });
  }

  for (const [label, number, message] of [
    ['9 digits', '987654321', 'Must be 10 digits'],
    ['11 digits', '98765432101', 'Must be 10 digits'],
    ['letters', '98765abc10', 'Enter a phone number of the chosen country'],
    ['a plus sign and too few digits', '+919876543', 'Enter a phone number of the chosen country'],
  ]) {
    it(`refuses a contact number with ${label} with "${message}"`, async () => {
      const res = await post(app, { ...validFields(jobId), contact_number: number });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual({ contact_number: message });
      expect(res.json().codes).toEqual({
        contact_number: message.startsWith('Must') ? 'contactDigits' : 'contactInvalid',
      });
      await expectNothingStored(app);
    });
  }

  it('keeps a number of any country in E.164, read with the country sent beside it (India when none)', async () => {
    const stored = async (fields: Record<string, string>) => {
      const res = await post(app, {
        ...validFields(jobId),
        ...fields,
        email: `${Math.random().toString(36).slice(2)}@example.com`,
      });
      expect(res.statusCode, JSON.stringify(res.json())).toBe(201);
      return (
        await app.db
          .selectFrom('job_application')
          .select('contact_number')
          .where('application_id', '=', res.json().application_id)
          .executeTakeFirstOrThrow()
      ).contact_number;
    };
    expect(await stored({ contact_number: '030 901820', contact_country: 'DE' })).toBe('+4930901820');
    expect(await stored({ contact_number: '+49 (30) 90-18-20', contact_country: 'de' })).toBe('+4930901820');
    expect(await stored({ contact_number: '98765 43210' })).toBe('+919876543210');
    expect(await stored({ contact_number: '+44 20 7946 0958', contact_country: 'IN' })).toBe('+442079460958');
    expect(await stored({ contact_number: '(202) 555-0143', contact_country: 'US' })).toBe('+12025550143');
  });

  for (const [label, fields] of [
    ['a number too short for its country', { contact_number: '030 12', contact_country: 'DE' }],
    ['a country that does not exist', { contact_number: '5550143', contact_country: 'XX' }],
    ['a country that is no code at all', { contact_number: '5550143', contact_country: '<script>' }],
    ['41 characters', { contact_number: `+49 ${'1'.repeat(37)}`, contact_country: 'DE' }],
  ] as const) {
    it(`refuses ${label}`, async () => {
      const res = await post(app, { ...validFields(jobId), ...fields });
      expect(res.statusCode).toBe(400);
      expect(res.json().codes).toEqual({ contact_number: 'contactInvalid' });
      await expectNothingStored(app);
    });
  }

  it('refuses a 5 MB + 1 byte file with 413 "File too large (max 5MB)"', async () => {
    const res = await post(app, validFields(jobId), {
      filename: 'big.pdf',
      data: pdfOfSize(RESUME_MAX_BYTES + 1),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      message: 'File too large (max 5MB)',
      errors: { resume: 'File too large (max 5MB)' },
      codes: { resume: 'resumeTooLarge' },
    });
    // the rest of the body is drained after the answer; the connection stays usable
    expect(res.headers.connection).not.toBe('close');
    await expectNothingStored(app);
  });

  const refusedContent: Array<[string, () => Buffer, string]> = [
    ['an executable renamed .pdf', sampleExe, 'cv.pdf'],
    ['a zip bomb renamed .docx', zipBombDocx, 'cv.docx'],
    ['a zip bomb with a lying directory renamed .docx', lyingZipBombDocx, 'cv.docx'],
    ['an archive of 1,500 entries renamed .docx', () => manyEntriesDocx(1500), 'cv.docx'],
    ['an Excel sheet renamed .doc', () => sampleDoc('Workbook'), 'cv.doc'],
    ['a text file renamed .pdf', () => Buffer.from('just text'), 'cv.pdf'],
  ];
  for (const [label, make, filename] of refusedContent) {
    it(`refuses ${label} with 415 "Only PDF, DOC, DOCX allowed"`, async () => {
      const res = await post(app, validFields(jobId), { filename, type: 'application/pdf', data: make() });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({
        message: 'Only PDF, DOC, DOCX allowed',
        errors: { resume: 'Only PDF, DOC, DOCX allowed' },
        codes: { resume: 'resumeType' },
      });
      await expectNothingStored(app);
    });
  }

  it('refuses a PDF whose opening runs JavaScript with 422 and a message the candidate can act on', async () => {
    const res = await post(app, validFields(jobId), {
      filename: 'cv.pdf',
      type: 'application/pdf',
      data: hostilePdfs.openActionScript(),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().codes).toEqual({ resume: 'resumeActive' });
    expect(res.json().message).toMatch(/Save or print it as a plain PDF and upload it again/);
    await expectNothingStored(app);
  });

  for (const filename of ['../../etc/cv.pdf', '..\\..\\cv.pdf', 'cv\u0001\u0007.pdf', 'cv\u202Efdp.exe']) {
    it(`refuses the file name ${JSON.stringify(filename)}`, async () => {
      const res = await post(app, validFields(jobId), { filename, data: samplePdf() });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual({ resume: 'Invalid file name' });
      await expectNothingStored(app);
    });
  }

  it('refuses an opening that is Draft or Closed like one that is gone', async () => {
    for (const status of ['Closed', 'Draft'] as const) {
      await app.db.updateTable('job_opening').set({ status }).where('job_id', '=', jobId).execute();
      const res = await post(app, validFields(jobId));
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('This job opening is no longer available.');
    }
    await expectNothingStored(app);
  });

  it('refuses a job id that does not exist with 404, and one that is not a number with 400', async () => {
    const res = await post(app, { ...validFields(jobId), job_id: String(jobId + 1000) });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('This job opening is no longer available.');
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999999']) {
      const r = await post(app, { ...validFields(jobId), job_id: bad });
      expect(r.statusCode).toBe(400);
      expect(r.json().errors).toEqual({ job_id: 'Choose a job opening' });
      expect(r.json().codes).toEqual({ job_id: 'jobInvalid' });
    }
    await expectNothingStored(app);
  });

  it('refuses a 20 MB body without a file at once (declared length)', async () => {
    const { body, contentType } = formOf(
      { ...validFields(jobId), address: 'x'.repeat(20 * 1024 * 1024) },
      null,
    );
    const res = await app.inject({
      method: 'POST',
      url: URL_,
      payload: body,
      headers: { 'content-type': contentType },
    });
    expect(res.statusCode).toBe(413);
    expect(res.headers.connection).toBe('close');
    await expectNothingStored(app);
  });

  it('refuses fields that are too long, two files, and a field sent twice', async () => {
    const long = await post(app, { ...validFields(jobId), address: 'x'.repeat(5000) });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors).toEqual({ address: 'Too long' });

    const { body, contentType } = multipart([
      ...Object.entries(validFields(jobId)).map(([name, value]) => ({ name, value: value! })),
      { name: 'resume', filename: 'a.pdf', data: samplePdf() },
      { name: 'resume', filename: 'b.pdf', data: samplePdf() },
    ]);
    const two = await app.inject({
      method: 'POST',
      url: URL_,
      payload: body,
      headers: { 'content-type': contentType },
    });
    expect(two.statusCode).toBe(400);

    const twice = multipart([
      ...Object.entries(validFields(jobId)).map(([name, value]) => ({ name, value: value! })),
      { name: 'email', value: 'other@example.com' },
      { name: 'resume', filename: 'a.pdf', data: samplePdf() },
    ]);
    const dup = await app.inject({
      method: 'POST',
      url: URL_,
      payload: twice.body,
      headers: { 'content-type': twice.contentType },
    });
    expect(dup.statusCode).toBe(400);
    await expectNothingStored(app);
  });

  it('refuses bodies that are not multipart, or broken multipart, with a 4xx', async () => {
    const json = await app.inject({ method: 'POST', url: URL_, payload: validFields(jobId) });
    expect(json.statusCode).toBe(415);
    const noBoundary = await app.inject({
      method: 'POST',
      url: URL_,
      payload: 'hello',
      headers: { 'content-type': 'multipart/form-data; charset=utf-8' },
    });
    expect(noBoundary.statusCode).toBe(400);
    const { body, contentType } = formOf(validFields(jobId), pdfFile());
    const cut = await app.inject({
      method: 'POST',
      url: URL_,
      payload: body.subarray(0, body.length - 200),
      headers: { 'content-type': contentType },
    });
    expect(cut.statusCode).toBe(400);
    const proto = multipart([{ name: '__proto__', value: 'x' }]);
    const polluted = await app.inject({
      method: 'POST',
      url: URL_,
      payload: proto.body,
      headers: { 'content-type': proto.contentType },
    });
    expect(polluted.statusCode).toBe(400);
    await expectNothingStored(app);
  });

  it('answers a repeated Idempotency-Key with the first answer and stores one row and one file', async () => {
    const key = '6f1c1e7e-4a1c-4f39-9d4b-3b2f8f2b7a10';
    const first = await post(app, validFields(jobId), pdfFile(), { 'idempotency-key': key });
    const second = await post(app, validFields(jobId), pdfFile(), { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(await countApplications(app.db)).toBe(1);
    expect(filesOnDisk(app)).toHaveLength(1);
    const row = await app.db.selectFrom('job_application').selectAll().executeTakeFirstOrThrow();
    expect(row.idempotency_key).toBe(key);
    // the same key with another application is refused, never answered with the first one's id
    const other = await post(app, { ...validFields(jobId), full_name: 'Someone Else' }, pdfFile(), {
      'idempotency-key': key,
    });
    expect(other.statusCode).toBe(422);
    expect(other.json()).not.toHaveProperty('application_id');
    expect(await countApplications(app.db)).toBe(1);
  });

  it('processes a retry with the same key after a refused attempt', async () => {
    const key = 'b7a3b1c2-0d9e-4e5f-8a6b-1c2d3e4f5a6b';
    const refused = await post(app, { ...validFields(jobId), email: 'bad' }, pdfFile(), {
      'idempotency-key': key,
    });
    expect(refused.statusCode).toBe(400);
    const fixed = await post(app, validFields(jobId), pdfFile(), { 'idempotency-key': key });
    expect(fixed.statusCode).toBe(201);
    expect(await countApplications(app.db)).toBe(1);
  });

  it('flags the same email applying twice to one job, without refusing it', async () => {
    const first = await post(app, validFields(jobId));
    const second = await post(app, { ...validFields(jobId), email: '  Asha.Menon@Example.com ' });
    const otherJob = await addOpening(app, 'Technical Writer');
    const third = await post(app, { ...validFields(otherJob) });
    expect([first.statusCode, second.statusCode, third.statusCode]).toEqual([201, 201, 201]);
    const rows = await app.db
      .selectFrom('job_application')
      .select(['job_id', 'email', 'is_duplicate'])
      .orderBy('application_id')
      .execute();
    expect(rows).toEqual([
      { job_id: jobId, email: 'asha.menon@example.com', is_duplicate: 0 },
      { job_id: jobId, email: 'asha.menon@example.com', is_duplicate: 1 },
      { job_id: otherJob, email: 'asha.menon@example.com', is_duplicate: 0 },
    ]);
  });

  it('answers a filled honeypot like a success, reveals no application id, and stores nothing', async () => {
    const res = await post(app, { ...validFields(jobId), website: 'https://spam.example' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ Message: 'Application submitted successfully!' });
    await expectNothingStored(app);
  });

  it('keeps an application when its opening is deleted (job_id becomes null)', async () => {
    const res = await post(app, validFields(jobId));
    expect(res.statusCode).toBe(201);
    await app.db.deleteFrom('job_opening').where('job_id', '=', jobId).execute();
    const row = await app.db.selectFrom('job_application').selectAll().executeTakeFirstOrThrow();
    expect(row.job_id).toBeNull();
  });

  it('never answers 5xx for random fields and random file bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          job_id: fc.oneof(fc.constant(String(jobId)), fc.string()),
          full_name: fc.string(),
          email: fc.oneof(fc.emailAddress(), fc.string()),
          contact_number: fc.oneof(fc.stringMatching(/^\d{10}$/), fc.string()),
          address: fc.string(),
          consent: fc.oneof(fc.constant('true'), fc.string()),
        }),
        fc.oneof(fc.uint8Array({ maxLength: 2000 }), fc.constant(new Uint8Array(samplePdf()))),
        fc.string({ maxLength: 40 }),
        async (fields, bytes, filename) => {
          const res = await post(app, fields, { filename, data: Buffer.from(bytes) });
          expect(res.statusCode).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('POST manage-job-applications over a real socket', () => {
  let app: FastifyInstance;
  let port: number;
  let jobId: number;
  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT_PUBLIC_PER_MIN: '100000' });
    jobId = await addOpening(app);
    app.addHook('onError', async (_req, _rep, err) => {
      if (process.env.H5_DEBUG) console.error('ROUTE ERROR', err);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  /**
   * Streams `head`, then `total` bytes of filler in 64 KB chunks (chunked encoding, no length),
   * then `tail`; answers the status and how many bytes the server had read from the socket when
   * it answered (what the client managed to write is more: the kernel buffers some megabytes).
   */
  function stream(head: Buffer, total: number, tail: Buffer, contentType: string) {
    return new Promise<{ status: number; serverRead: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      let serverRead = 0;
      let watch: Socket | undefined;
      const onConnection = (socket: Socket) => {
        app.server.off('connection', onConnection);
        watch = socket;
      };
      app.server.on('connection', onConnection);
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: URL_,
        headers: { 'content-type': contentType, 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        answered = true;
        serverRead = watch?.bytesRead ?? 0;
        res.resume();
        res.on('end', () => {
          req.destroy(); // answered: this sender gives up on the rest
          resolve({ status: res.statusCode ?? 0, serverRead });
        });
      });
      req.on('error', (err) => (answered ? undefined : reject(err)));
      req.write(head);
      const chunk = Buffer.alloc(64 * 1024, 0x41);
      const pump = () => {
        while (!answered && sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!answered) req.end(tail);
      };
      pump();
    });
  }

  it('keeps the connection open after an application read to the end', async () => {
    const { body, contentType } = formOf(validFields(jobId), pdfFile());
    const res = await fetch(`http://127.0.0.1:${port}${URL_}`, {
      method: 'POST',
      body,
      headers: { 'content-type': contentType },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('connection')).not.toBe('close');
  });

  it('answers 413 to a 20 MB body without a file long before the body ends', async () => {
    const boundary = 'manna-boundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="address"\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const before = await countApplications(app.db);
    const result = await stream(head, 20 * 1024 * 1024, tail, `multipart/form-data; boundary=${boundary}`);
    expect(result.status).toBe(413);
    expect(result.serverRead).toBeLessThan(1024 * 1024); // the 64 KB budget and a little more
    expect(await countApplications(app.db)).toBe(before);
  });

  it('answers 413 to an oversized file while it is still arriving, without reading the rest', async () => {
    const boundary = 'manna-boundary';
    const fields = Object.entries(validFields(jobId))
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('');
    const head = Buffer.from(
      `${fields}--${boundary}\r\nContent-Disposition: form-data; name="resume"; filename="cv.pdf"\r\n` +
        `Content-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const before = { rows: await countApplications(app.db), files: filesOnDisk(app) };
    const result = await stream(head, 40 * 1024 * 1024, tail, `multipart/form-data; boundary=${boundary}`);
    expect(result.status).toBe(413);
    expect(result.serverRead).toBeLessThan(6 * 1024 * 1024); // 5 MB and a little more
    expect(await countApplications(app.db)).toBe(before.rows);
    expect(filesOnDisk(app)).toEqual(before.files); // no upload left behind
  });
});

describe('POST manage-job-applications rate limit', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT_PUBLIC_PER_MIN: '3' });
  });
  afterAll(() => app.close());

  it('answers 429 to a burst over the per-client limit, and stores nothing for it', async () => {
    const jobId = await addOpening(app);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await post(app, validFields(jobId))).statusCode);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    expect(await countApplications(app.db)).toBe(3);
  });
});

describe('POST manage-job-applications refused while the CV is still arriving, from a real multipart client', () => {
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    app = await createTestApp({ RATE_LIMIT_PUBLIC_PER_MIN: '2' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  /** What a browser sends: fetch with FormData and a file; answers the status and message or the network error. */
  async function send(jobId: number, file: Buffer) {
    const form = new FormData();
    for (const [name, value] of Object.entries(validFields(jobId))) form.set(name, String(value));
    form.set('resume', new Blob([new Uint8Array(file)], { type: 'application/pdf' }), 'cv.pdf');
    try {
      const res = await fetch(`${base}${URL_}`, { method: 'POST', body: form });
      return { status: res.status, message: ((await res.json()) as { message?: string }).message };
    } catch (err) {
      return { status: 0, message: String((err as Error).cause ?? err) };
    }
  }

  it('a CV past the limit gets the 413 message, not a broken connection, every time', async () => {
    const jobId = await addOpening(app);
    // just past the limit (read, then refused) and well past it (refused by its declared length)
    for (const size of [
      RESUME_MAX_BYTES + 1024 * 1024,
      12 * 1024 * 1024,
      12 * 1024 * 1024,
      15 * 1024 * 1024,
    ]) {
      expect(await send(jobId, pdfOfSize(size))).toEqual({
        status: 413,
        message: 'File too large (max 5MB)',
      });
    }
  });

  /**
   * A slow uploader (a phone): the whole multipart body, `size` bytes of CV, written in 64 KB
   * chunks a few milliseconds apart. Answers the status, or the error the sender saw instead.
   */
  function slowUpload(jobId: number, size: number) {
    const { body, contentType } = formOf(validFields(jobId), { filename: 'cv.pdf', data: pdfOfSize(size) });
    return new Promise<{ status: number; error?: string }>((resolve) => {
      // done when the answer was read and the whole body written, or at the first error
      let status = 0;
      let answered = false;
      let written = false;
      const settle = () => answered && written && resolve({ status });
      const req = http.request(`${base}${URL_}`, {
        method: 'POST',
        headers: { 'content-type': contentType, 'content-length': String(body.length) },
      });
      req.on('response', (res) => {
        status = res.statusCode ?? 0;
        res.resume();
        res.on('end', () => {
          answered = true;
          settle();
        });
      });
      req.on('finish', () => {
        written = true;
        settle();
      });
      req.on('error', (err) =>
        resolve({ status, error: (err as NodeJS.ErrnoException).code ?? err.message }),
      );
      let offset = 0;
      const next = () => {
        if (req.destroyed) return;
        if (offset >= body.length) return void req.end();
        req.write(body.subarray(offset, offset + 64 * 1024));
        offset += 64 * 1024;
        setTimeout(next, 2);
      };
      next();
    });
  }

  it('a slow sender of a CV past the limit reads the 413, with no broken pipe', async () => {
    const jobId = await addOpening(app, 'Indexer');
    for (const size of [RESUME_MAX_BYTES + 512 * 1024, 9 * 1024 * 1024]) {
      expect(await slowUpload(jobId, size)).toEqual({ status: 413 });
    }
  }, 60_000);

  it('a sender over the rate limit gets the 429 message while their CV is still arriving', async () => {
    const jobId = await addOpening(app, 'Proofreader');
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await send(jobId, pdfOfSize(4 * 1024 * 1024)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 429, 429]);
    expect(answers[3].message).toMatch(/too many/i);
  });
});
