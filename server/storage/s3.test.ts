import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
// s3rver has no type declarations; the part used here is small
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
import S3rver from 's3rver';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePdf } from '../../tests/fixtures/files';
import { multipart } from '../../tests/fixtures/multipart';
import { signInAs } from '../lib/auth-testing';
import { createOpening, ensureJobType } from '../db/jobs.repo';
import { createTestApp } from '../testing';
import { createS3Storage } from './s3';

// An S3-compatible server started by the test (s3rver, on a free port, files in a temp folder),
// behind a gate that checks each request's AWS Signature Version 4 with the SDK's own signer, as
// S3 does (s3rver checks none): a request signed with another secret, or changed after it was
// signed, is refused 403 SignatureDoesNotMatch. What it proves and what it cannot:
// server/storage/README.md.
const BUCKET = 'manna-test';
const SECRET_KEY = 'S3RVER';
let server: { run(): Promise<AddressInfo>; close(): Promise<void> };
let gate: http.Server;
let dir: string;
let endpoint: string;
const checked = { verified: 0, refused: 0 };
const settings = () => ({
  endpoint,
  bucket: BUCKET,
  region: 'us-east-1',
  accessKeyId: 'S3RVER',
  secretAccessKey: SECRET_KEY,
});

/** SHA-256, and HMAC-SHA256 with a key, as the signer wants them. */
type Bytes = string | ArrayBuffer | ArrayBufferView;
const bytesOf = (data: Bytes) =>
  typeof data === 'string'
    ? Buffer.from(data)
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);
class Sha256 {
  readonly #hash;
  constructor(key?: Bytes) {
    this.#hash = key === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(key));
  }
  update(data: Bytes) {
    this.#hash.update(bytesOf(data));
  }
  async digest() {
    return new Uint8Array(this.#hash.digest());
  }
}

/** Whether a request's Authorization is what the SDK's signer makes of it with the bucket's secret. */
async function signatureMatches(req: http.IncomingMessage): Promise<boolean> {
  const auth =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      req.headers.authorization ?? '',
    );
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  if (!auth || !/^\d{8}T\d{6}Z$/.test(amzDate)) return false;
  const [, accessKeyId, , region, signed, signature] = auth;
  const headers = Object.fromEntries(
    signed!.split(';').map((name) => [name, String(req.headers[name] ?? '')]),
  );
  const url = new URL(req.url ?? '/', 'http://gate');
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams)
    query[k] = k in query ? [...([] as string[]).concat(query[k]!), v] : v;
  const signer = new SignatureV4({
    credentials: { accessKeyId: accessKeyId!, secretAccessKey: SECRET_KEY },
    region: region!,
    service: 's3',
    sha256: Sha256,
    uriEscapePath: false,
  });
  const when = new Date(
    amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
  );
  const expected = await signer.sign(
    { method: req.method!, protocol: 'http:', hostname: url.hostname, path: url.pathname, query, headers },
    { signingDate: when },
  );
  return new RegExp(`Signature=${signature}$`).test(String(expected.headers.authorization ?? ''));
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-s3rver-'));
  server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  gate = http.createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      void signatureMatches(req).then((ok) => {
        if (!ok) {
          checked.refused += 1;
          res.writeHead(403, { 'content-type': 'application/xml' });
          res.end(
            '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the signature you provided.</Message></Error>',
          );
          return;
        }
        checked.verified += 1;
        const upstream = http.request(
          { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => res.destroy());
        upstream.end(Buffer.concat(body));
      });
    });
  });
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(gate.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => gate?.close(resolve));
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
  // every request the driver and the server sent was signed as S3 wants it
  expect(checked.refused).toBe(0);
  expect(checked.verified).toBeGreaterThan(0);
});

const text = async (body: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
};

describe('S3 storage driver (against s3rver, signatures checked)', () => {
  it('is refused by a bucket whose secret it does not have: the signatures are really checked', async () => {
    const wrong = createS3Storage({ ...settings(), secretAccessKey: 'not-the-secret' });
    await expect(
      wrong.put(Readable.from([samplePdf()]), { prefix: 'cv', ext: 'pdf', contentType: 'application/pdf' }),
    ).rejects.toThrow(/signature/i);
    wrong.client.destroy();
    expect(checked.refused).toBeGreaterThan(0);
    checked.refused = 0;
  });

  it('stores under a generated key, reads, checks and deletes objects', async () => {
    const storage = createS3Storage(settings());
    const bytes = samplePdf();
    const key = await storage.put(Readable.from([bytes]), {
      prefix: 'cv',
      ext: 'pdf',
      contentType: 'application/pdf',
    });
    expect(key).toMatch(/^cv\/[0-9a-f-]{36}\.pdf$/);
    expect(await storage.exists(key)).toBe(true);
    const got = await storage.get(key);
    expect(got?.size).toBe(bytes.length);
    expect(got?.contentType).toBe('application/pdf');
    expect((await text(got!.body)).equals(bytes)).toBe(true);
    // replaced in place: the same key, the new bytes
    const replaced = await storage.put(Readable.from([Buffer.from('%PDF-1.7 new')]), {
      prefix: 'cv',
      ext: 'pdf',
      contentType: 'application/pdf',
      replace: key,
    });
    expect(replaced).toBe(key);
    expect((await text((await storage.get(key))!.body)).toString()).toBe('%PDF-1.7 new');
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeUndefined();
    // not a key of ours: never sent to the bucket
    expect(await storage.get('../../etc/passwd')).toBeUndefined();
    expect(await storage.exists('cv/x.pdf')).toBe(false);
    storage.client.destroy();
  });

  it("the server with S3 settings stores an applicant's CV in the bucket and GetPresignedUrl answers an address that reads it, logged as the reader's", async () => {
    const s = settings();
    const app: FastifyInstance = await createTestApp({
      S3_ENDPOINT: s.endpoint,
      S3_BUCKET: s.bucket,
      S3_REGION: s.region,
      S3_ACCESS_KEY_ID: s.accessKeyId,
      S3_SECRET_ACCESS_KEY: s.secretAccessKey,
    });
    try {
      expect(app.storage.driver).toBe('s3');
      const type = await ensureJobType(app.db, 'Full-time');
      const job = await createOpening(app.db, {
        job_title: 'Copy Editor',
        department: 'Editorial',
        location: 'Kochi',
        job_type_id: type.job_type_id,
        description: '<p>Edit.</p>',
        requirement: '<ul><li>Care</li></ul>',
        about_role: '<p>About.</p>',
        responsibility: '<ul><li>Edit</li></ul>',
      });
      const { body, contentType } = multipart([
        { name: 'job_id', value: String(job.job_id) },
        { name: 'full_name', value: 'Asha Menon' },
        { name: 'email', value: 'asha.s3@example.com' },
        { name: 'contact_number', value: '9876543210' },
        { name: 'address', value: '12 MG Road, Kochi' },
        { name: 'consent', value: 'true' },
        { name: 'resume', filename: 'Asha Menon CV.pdf', type: 'application/pdf', data: samplePdf() },
      ]);
      const res = await app.inject({
        method: 'POST',
        url: '/api/manage-job-applications',
        payload: body,
        headers: { 'content-type': contentType },
      });
      expect(res.statusCode, res.body).toBe(201);
      const row = await app.db
        .selectFrom('stored_file')
        .select(['file_key'])
        .where('kind', '=', 'cv')
        .executeTakeFirstOrThrow();
      // the object is in the bucket (s3rver keeps it under its directory), nothing under DATA_DIR/files
      expect(await app.storage.exists(row.file_key)).toBe(true);
      expect(fs.existsSync(path.join(app.config.DATA_DIR, 'files', ...row.file_key.split('/')))).toBe(false);

      const reader = await signInAs(app, { permissions: ['applications.read'] });
      const presigned = await app.inject({
        url: `/api/GetPresignedUrl?s3_key=${encodeURIComponent(row.file_key)}`,
        headers: reader.headers,
      });
      expect(presigned.statusCode).toBe(200);
      const { url } = presigned.json<{ url: string }>();
      expect(url.startsWith(`/media/private/${row.file_key}?by=${reader.userId}&`)).toBe(true);
      const file = await app.inject({ url });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-disposition']).toMatch(/^inline; filename="Asha Menon CV.pdf"/);
      expect(file.rawPayload.equals(samplePdf())).toBe(true);
      const reads = await app.db
        .selectFrom('audit_log')
        .select('actor_email')
        .where('action', '=', 'cv_read')
        .execute();
      expect(reads).toEqual([{ actor_email: reader.email }]);
      // without applications.read: no address at all
      expect(
        (await app.inject({ url: `/api/GetPresignedUrl?s3_key=${encodeURIComponent(row.file_key)}` }))
          .statusCode,
      ).toBe(401);
    } finally {
      await app.close();
    }
  });
});
