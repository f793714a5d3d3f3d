import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
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
import { uploads } from '../lib/multipart';
import { checkResume, cleanFileName } from '../lib/file-check';
import { withIdempotency, type StoredAnswer } from '../lib/idempotency';
import { queueApplicationMails } from '../mail/mails';

/**
 * POST /api/manage-job-applications (spec sections 5 and 7, DESIGN.md section 4): a multipart
 * form with job_id, full_name, email, contact_number, address, consent, the honeypot `website`
 * and the CV in `resume`. See server/README.md "Job applications" for the order of checks.
 */

/** Text fields may take this much of a request before the file starts (8 short fields + headers). */
const FIELDS_BUDGET_BYTES = 64 * 1024;

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

const applications: FastifyPluginAsyncZod = async (app) => {
  const multipart = await uploads(app, {
    fileField: 'resume',
    fieldNames: FIELD_NAMES,
    fileMaxBytes: RESUME_MAX_BYTES,
    fieldsBudgetBytes: FIELDS_BUDGET_BYTES,
    fieldMaxBytes: 4096,
    maxFields: 12,
    messages: {
      tooLarge,
      oneFile: 'Send one CV file in the field "resume".',
      notMultipart: 'Send the application as multipart/form-data.',
    },
    // busboy would quietly cut directories off file names; we want to see them and refuse them
    preservePath: true,
  });

  // Uploads land here first and are checked before they reach the storage. Files left by a
  // previous process (a crash mid-upload) are removed on start.
  const uploadDir = path.join(app.config.DATA_DIR, 'uploads');
  await fsp.rm(uploadDir, { recursive: true, force: true });
  await fsp.mkdir(uploadDir, { recursive: true });

  /** Reads the form (lib/multipart.ts), the CV into the temporary file `temp`. */
  async function readForm(request: FastifyRequest, temp: string): Promise<Form> {
    let sink: fs.WriteStream | undefined;
    try {
      const { fields, file } = await multipart.read(request, async (stream) => {
        sink = fs.createWriteStream(temp, { flags: 'wx', mode: 0o600 });
        await pipeline(stream, sink);
      });
      return { fields, file: file && { name: file.name, size: file.size } };
    } finally {
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
      onRequest: multipart.guard,
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
