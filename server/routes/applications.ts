import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  APPLICATION_MESSAGES as M,
  ApplicationFields,
  RESUME_MAX_BYTES,
} from '../../src/api/contract/applications';
import { insertApplication } from '../db/applications.repo';
import { getOpening } from '../db/jobs.repo';
import { HttpError } from '../http-error';
import { drainRefusedUploads } from '../lib/multipart';
import { checkResume, cleanFileName } from '../lib/file-check';
import { withIdempotency, type StoredAnswer } from '../lib/idempotency';
import { queueApplicationMails } from '../mail/mails';

/**
 * POST /api/manage-job-applications (spec sections 5 and 7, DESIGN.md section 4): a multipart
 * form with job_id, full_name, email, contact_number, address, consent, the honeypot `website`
 * and the CV in `resume`. See server/README.md "Job applications" for the order of checks.
 */

/** Text fields may take this much of a request before the file starts (8 short fields + headers). */
export const FIELDS_BUDGET_BYTES = 64 * 1024;
/** A whole request: the largest CV plus the fields. Anything longer is refused unread. */
export const MAX_REQUEST_BYTES = RESUME_MAX_BYTES + FIELDS_BUDGET_BYTES;

const FIELD_NAMES = new Set([
  'job_id',
  'full_name',
  'email',
  'contact_number',
  'address',
  'consent',
  'website',
  'lang',
]);
const TEXT_FIELDS = ['job_id', 'full_name', 'email', 'contact_number', 'address', 'consent'] as const;

const tooLarge = () => new HttpError(413, M.resumeTooLarge, { resume: M.resumeTooLarge });

interface Form {
  fields: Record<string, string>;
  file?: { name: string; size: number };
}

/** Errors of the multipart parser that are the client's doing, by @fastify/multipart code. */
function clientError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  const code = (err as { code?: unknown }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_FILES_LIMIT':
      return new HttpError(400, 'Send one CV file in the field "resume".');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new HttpError(413, 'The form has too many fields.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new HttpError(415, 'Send the application as multipart/form-data.');
  }
  // File-system errors (they carry a syscall) are ours; anything else came from parsing the body:
  // a missing boundary, a malformed part header, a body that ends early, a prototype field name.
  if (err instanceof Error && !('syscall' in err)) return new HttpError(400, 'The form could not be read.');
  return undefined;
}

const applications: FastifyPluginAsyncZod = async (app) => {
  await app.register(fastifyMultipart, {
    // busboy would quietly cut directories off file names; we want to see them and refuse them
    preservePath: true,
    limits: {
      fileSize: RESUME_MAX_BYTES,
      files: 1,
      fields: 12,
      fieldSize: 4096,
      fieldNameSize: 100,
      parts: 14,
      headerPairs: 20,
    },
  });

  // Uploads land here first and are checked before they reach the storage. Files left by a
  // previous process (a crash mid-upload) are removed on start.
  const uploadDir = path.join(app.config.DATA_DIR, 'uploads');
  await fsp.rm(uploadDir, { recursive: true, force: true });
  await fsp.mkdir(uploadDir, { recursive: true });

  // A body refused before its end (too large, rate limited, a bad form) is drained after the
  // answer, so the sender reads the answer instead of a broken connection (lib/multipart.ts).
  drainRefusedUploads(app);

  /** Reads the multipart body into fields and a temporary file, enforcing every size limit. */
  async function readForm(request: FastifyRequest, temp: string): Promise<Form> {
    const raw = request.raw;
    let received = 0;
    let fileStarted = false;
    let abort: (err: HttpError) => void = () => {};
    const aborted = new Promise<never>((_, reject) => {
      abort = reject;
    });
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_REQUEST_BYTES) abort(tooLarge());
      else if (!fileStarted && received > FIELDS_BUDGET_BYTES) {
        // The parser sees this chunk after us and may find the file's start in it; decide after
        // it (and the loop below) had their turn.
        setImmediate(() => {
          if (!fileStarted) abort(new HttpError(413, 'The form is too large.'));
        });
      }
    };
    raw.on('data', onData);

    let sink: fs.WriteStream | undefined;
    const parse = (async (): Promise<Form> => {
      const fields: Record<string, string> = {};
      let file: Form['file'];
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== 'resume' || file) {
            part.file.resume();
            throw new HttpError(400, 'Send one CV file in the field "resume".');
          }
          fileStarted = true;
          part.file.on('limit', () => abort(tooLarge()));
          sink = fs.createWriteStream(temp, { flags: 'wx', mode: 0o600 });
          await pipeline(part.file, sink);
          file = { name: part.filename, size: part.file.bytesRead };
        } else {
          if (!FIELD_NAMES.has(part.fieldname)) continue;
          if (part.fieldname in fields)
            throw new HttpError(400, `The field "${part.fieldname}" was sent twice.`);
          if (part.valueTruncated) {
            throw new HttpError(400, 'Please correct the highlighted fields.', {
              [part.fieldname]: 'Too long',
            });
          }
          fields[part.fieldname] = String(part.value);
        }
      }
      return { fields, file };
    })();
    parse.catch(() => {}); // when the abort wins the race, the parser's own failure is expected

    try {
      return await Promise.race([parse, aborted]);
    } catch (err) {
      if (!raw.complete) {
        // stop reading: the answer goes out now, with Connection: close
        raw.unpipe();
        raw.pause();
      }
      const mapped = clientError(err);
      if (mapped) throw mapped;
      throw err; // a full disk becomes 503 in the app's error handler (lib/dependency-errors.ts)
    } finally {
      raw.off('data', onData);
      if (sink && !sink.closed) {
        // close the temporary file before it is removed (a write may still be pending)
        const closed = new Promise<void>((resolve) => sink!.once('close', () => resolve()));
        sink.destroy();
        await closed;
      }
    }
  }

  /** Checks and stores one application; throws HttpError for anything the client must fix. */
  async function receive(
    request: FastifyRequest,
    { fields, file }: Form,
    temp: string,
  ): Promise<StoredAnswer> {
    // Honeypot: people never see the field; a filled one gets a normal answer and nothing is kept.
    if (fields.website?.trim()) {
      request.log.info('Job application honeypot filled; nothing stored');
      return { status: 201, body: { Message: M.success } };
    }

    const errors: Record<string, string> = {};
    const parsed = ApplicationFields.safeParse(
      Object.fromEntries(TEXT_FIELDS.map((name) => [name, fields[name] ?? ''])),
    );
    if (!parsed.success) {
      for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
    }
    const fileName = file && cleanFileName(file.name);
    if (!file || file.size === 0) errors.resume = M.resumeRequired;
    else if (fileName === undefined) errors.resume = 'Invalid file name';
    if (!parsed.success || Object.keys(errors).length > 0) {
      throw new HttpError(400, 'Please correct the highlighted fields.', errors);
    }
    const data = parsed.data;
    const jobId = Number(data.job_id);
    const opening = await getOpening(app.db, jobId);
    if (!opening) {
      throw new HttpError(404, 'This job opening is no longer available.', {
        job_id: 'This job opening is no longer available.',
      });
    }

    const check = await checkResume(await fsp.readFile(temp));
    if (!check.ok) {
      request.log.info({ reason: check.reason }, 'CV refused by the content check');
      throw new HttpError(415, M.resumeType, { resume: M.resumeType });
    }

    const key = await app.storage.put(
      { path: temp },
      { prefix: 'cv', ext: check.type.ext, contentType: check.type.contentType },
    );
    try {
      const header = request.headers['idempotency-key'];
      const { application_id, is_duplicate } = await insertApplication(
        app.db,
        {
          job_id: jobId,
          full_name: data.full_name,
          email: data.email,
          contact_number: data.contact_number,
          address: data.address,
          consent_at: new Date().toISOString(),
          idempotency_key: typeof header === 'string' ? header : null,
          file: {
            key,
            content_type: check.type.contentType,
            byte_size: file!.size,
            original_name: fileName!,
          },
        },
        new Date(),
        (trx) =>
          // the candidate's acknowledgment and the staff notices, kept only with the application
          queueApplicationMails(trx, app.config, {
            name: data.full_name,
            email: data.email,
            job: opening.job_title,
            lang: fields.lang,
          }),
      );
      app.mail.poke();
      request.log.info({ application_id, job_id: jobId, is_duplicate }, 'Job application stored');
      return { status: 201, body: { Message: M.success, application_id } };
    } catch (err) {
      await app.storage.delete(key); // no row references it: do not keep it
      throw err;
    }
  }

  /** What an Idempotency-Key stands for: every field sent and the CV's bytes. */
  async function fingerprintOf({ fields, file }: Form, temp: string): Promise<string> {
    const fileHash = file
      ? createHash('sha256')
          .update(await fsp.readFile(temp))
          .digest('hex')
      : null;
    return JSON.stringify([Object.entries(fields).sort(), file?.name ?? null, fileHash]);
  }

  app.post(
    '/manage-job-applications',
    {
      config: { rateLimit: app.publicRateLimit },
      onRequest: async (request) => {
        const type = request.headers['content-type'] ?? '';
        if (!/^multipart\/form-data\s*;/i.test(type)) {
          throw new HttpError(415, 'Send the application as multipart/form-data.');
        }
        const length = Number(request.headers['content-length']);
        if (length > MAX_REQUEST_BYTES) throw tooLarge();
      },
    },
    async (request, reply) => {
      const temp = path.join(uploadDir, randomUUID());
      let answer: StoredAnswer;
      try {
        // the form is read first: a repeated key is only the same request with the same content
        const form = await readForm(request, temp);
        answer = await withIdempotency(
          app,
          request,
          'job-application',
          () => receive(request, form, temp),
          () => fingerprintOf(form, temp),
        );
      } finally {
        await fsp.rm(temp, { force: true });
      }
      return reply.code(answer.status).send(answer.body);
    },
  );
};

export default applications;
