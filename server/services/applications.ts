import fsp from 'node:fs/promises';
import {
  APPLICATION_MESSAGES as M,
  ApplicationJobId,
  applicationFormErrors,
  consentGiven,
  type ApplicationErrors,
} from '../../src/api/contract/applications';
import { insertApplication } from '../db/applications.repo';
import { getOpening } from '../db/jobs.repo';
import { HttpError } from '../http-error';
import { checkResume, cleanFileName } from '../lib/file-check';
import { queueApplicationMails } from '../mail/mails';
import { inTransaction, type ServiceContext } from './context';

/**
 * Job applications. `receiveApplication` is the public form's one write path: the rules of the
 * Apply form again, the opening, the CV's content (never its name or declared type; a PDF that
 * carries scripts is refused), the file in the store, then in one transaction the file row, the
 * application, the candidate's acknowledgment and the staff notices; the stored file is removed
 * if that transaction fails. docs/decisions/011-careers-openings-applications-files.md.
 */

/** A refusal for fields, with each one's message and code (contract/form-rules.ts). */
export const refusedApplication = (status: number, codes: ApplicationErrors) =>
  HttpError.fields(
    status === 400 ? 'Please correct the highlighted fields.' : M[Object.values(codes)[0]!],
    codes,
    M,
    status,
  );

/** A form as the route read it: its text fields, and the CV saved at `file.path`. */
export interface ApplicationForm {
  fields: Record<string, string>;
  file?: { name: string; size: number; path: string };
  idempotencyKey: string | null;
}

export interface Receipt {
  status: number;
  body: { Message: string; application_id?: number };
}

export async function receiveApplication(
  ctx: ServiceContext,
  { fields, file, idempotencyKey }: ApplicationForm,
): Promise<Receipt> {
  // Honeypot: people never see the field; a filled one gets a normal answer and nothing is kept.
  if (fields.website?.trim()) {
    ctx.log.info({}, 'Job application honeypot filled; nothing stored');
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
  if (Object.keys(codes).length > 0) throw refusedApplication(400, codes);
  const job = Number(jobId.data);
  const opening = await getOpening(ctx.db, job);
  if (!opening) throw refusedApplication(404, { job_id: 'jobGone' });

  const check = await checkResume(await fsp.readFile(file!.path));
  if (!check.ok) {
    ctx.log.info({ reason: check.reason }, 'CV refused by the content check');
    // a PDF with scripts or attachments: 422, with what the candidate can do about it
    throw check.active
      ? refusedApplication(422, { resume: 'resumeActive' })
      : refusedApplication(415, { resume: 'resumeType' });
  }

  const key = await ctx.storage.put(
    { path: file!.path },
    { prefix: 'cv', ext: check.type.ext, contentType: check.type.contentType },
  );
  try {
    const { application_id, is_duplicate } = await inTransaction(ctx, async (c) => {
      const stored = await insertApplication(
        c.trx,
        {
          job_id: job,
          full_name: data.full_name,
          email: data.email,
          contact_number: data.contact_number,
          address: data.address,
          consent_at: c.at.toISOString(),
          idempotency_key: idempotencyKey,
          file: {
            key,
            content_type: check.type.contentType,
            byte_size: file!.size,
            original_name: fileName!,
          },
        },
        c.at,
      );
      // the candidate's acknowledgment and the staff notices, kept only with the application
      await queueApplicationMails(
        c.trx,
        ctx.config,
        { name: data.full_name, email: data.email, job: opening.job_title, lang: fields.lang },
        c.at,
      );
      c.mailQueued();
      return stored;
    });
    ctx.log.info({ application_id, job_id: job, is_duplicate }, 'Job application stored');
    return { status: 201, body: { Message: M.success, application_id } };
  } catch (err) {
    await ctx.storage.delete(key); // no row references it: do not keep it
    throw err;
  }
}
