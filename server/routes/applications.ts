import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  APPLICATION_MESSAGES as M,
  ApplicationJobId,
  applicationFormErrors,
  consentGiven,
  RESUME_MAX_BYTES,
  type ApplicationErrors,
} from '../../src/api/contract/applications';
import { insertApplication } from '../db/applications.repo';
import { getOpening } from '../db/jobs.repo';
import { HttpError } from '../http-error';
import { uploads } from '../lib/multipart';
import { checkResume, cleanFileName } from '../lib/file-check';
import { withIdempotency, type StoredAnswer } from '../lib/idempotency';
import { queueApplicationMails } from '../mail/mails';

/**
 * POST /api/manage-job-applications: a multipart
 * form with job_id, full_name, email, contact_number, address, consent, the honeypot `website`
 * and the CV in `resume`. See docs/decisions/011-careers-openings-applications-files.md for the order of checks.
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

/** A refusal for fields, with each one's message and code (contract/form-rules.ts). */
const refused = (status: number, codes: ApplicationErrors) =>
  HttpError.fields(
    status === 400 ? 'Please correct the highlighted fields.' : M[Object.values(codes)[0]!],
    codes,
    M,
    status,
  );
const tooLarge = () => refused(413, { resume: 'resumeTooLarge' });

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

    const text = (name: string) => (fields[name] ?? '').trim();
    const data = {
      full_name: text('full_name'),
      email: text('email'),
      contact_number: text('contact_number'),
      address: text('address'),
      resume: file ? { name: file.name, size: file.size } : null,
      consent: consentGiven(fields.consent),
    };
    // the bytes are read below: the content decides the CV's type, not its name
    const codes: ApplicationErrors = applicationFormErrors(data, { typeByName: false });
    const fileName = file && cleanFileName(file.name);
    if (!codes.resume && fileName === undefined) codes.resume = 'resumeName';
    const jobId = ApplicationJobId.safeParse(fields.job_id ?? '');
    if (!jobId.success) codes.job_id = 'jobInvalid';
    if (Object.keys(codes).length > 0) throw refused(400, codes);
    const job = Number(jobId.data);
    const opening = await getOpening(app.db, job);
    if (!opening) throw refused(404, { job_id: 'jobGone' });

    const check = await checkResume(await fsp.readFile(temp));
    if (!check.ok) {
      request.log.info({ reason: check.reason }, 'CV refused by the content check');
      // a PDF with scripts or attachments: 422, with what the candidate can do about it
      throw check.active ? refused(422, { resume: 'resumeActive' }) : refused(415, { resume: 'resumeType' });
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
          job_id: job,
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
      request.log.info({ application_id, job_id: job, is_duplicate }, 'Job application stored');
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
