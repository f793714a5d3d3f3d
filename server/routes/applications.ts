import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RESUME_MAX_BYTES } from '../../contract/applications';
import { uploads } from '../lib/multipart';
import { SOURCE_FIELDS } from '../../contract/insights';
import { withIdempotency, type StoredAnswer } from '../lib/idempotency';
import { receiveApplication, refusedApplication } from '../services/applications';

/**
 * POST /api/manage-job-applications: a multipart form with job_id, full_name, email,
 * contact_number, address, consent, the honeypot `website` and the CV in `resume`. The route reads
 * the form (the CV into a temporary file) and keeps the Idempotency-Key; the checks and the writes
 * are services/applications.ts receiveApplication. Order of checks:
 * docs/decisions/011-careers-openings-applications-files.md.
 */

/** Text fields may take this much of a request before the file starts (8 short fields + headers). */
const FIELDS_BUDGET_BYTES = 64 * 1024;

const FIELD_NAMES = new Set([
  'job_id',
  'full_name',
  'email',
  'contact_number',
  'contact_country',
  'address',
  'consent',
  'website',
  'lang',
  // where it was sent from (contract/insights.ts SOURCE_FIELDS)
  ...SOURCE_FIELDS,
]);

const tooLarge = () => refusedApplication(413, { resume: 'resumeTooLarge' });

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
    maxFields: 17,
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
          () => {
            const header = request.headers['idempotency-key'];
            return receiveApplication(app.services(request), {
              fields: form.fields,
              file: form.file && { ...form.file, path: temp },
              idempotencyKey: typeof header === 'string' ? header : null,
            });
          },
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
