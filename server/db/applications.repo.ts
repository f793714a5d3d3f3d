import type { Kysely } from 'kysely';
import type { KeptSource } from './analytics.schema';
import { recordStoredFile } from './files.repo';
import type { Database } from './schema';

/**
 * Job applications as the public form stores them: table access only, plain functions taking `db`
 * (or a transaction) first. What a receipt does around them is services/applications.ts.
 */

type Db = Kysely<Database>;

export interface NewApplication {
  job_id: number;
  full_name: string;
  email: string;
  contact_number: string;
  address: string;
  consent_at: string;
  idempotency_key: string | null;
  /** The language of the page it came from (one of the site's). */
  lang?: string;
  /** Where it was sent from (its visit's landing page, referrer and campaign). */
  source?: KeptSource;
  file: { key: string; content_type: string; byte_size: number; original_name: string };
}

/** Emails are compared trimmed and lower-cased (how people mean them). */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Whether this email already applied to this job (the new row is then flagged, not refused). */
export async function hasApplied(db: Db, jobId: number, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('job_application')
    .select('application_id')
    .where('job_id', '=', jobId)
    .where('email', '=', normalizeEmail(email))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Stores the CV's file row and the application; answers the new id and whether it was flagged as a
 * duplicate. Call it inside the transaction of the receipt (services/applications.ts), so the file
 * row, the application and its mail are kept together or not at all.
 */
export async function insertApplication(
  trx: Db,
  input: NewApplication,
  now = new Date(),
): Promise<{ application_id: number; is_duplicate: boolean }> {
  const at = now.toISOString();
  await recordStoredFile(
    trx,
    {
      file_key: input.file.key,
      kind: 'cv',
      content_type: input.file.content_type,
      byte_size: input.file.byte_size,
      original_name: input.file.original_name,
    },
    now,
  );
  const duplicate = await hasApplied(trx, input.job_id, input.email);
  const { application_id } = await trx
    .insertInto('job_application')
    .values({
      job_id: input.job_id,
      // the title the candidate applied for, kept whatever happens to the opening later
      job_title: trx.selectFrom('job_opening').select('job_title').where('job_id', '=', input.job_id),
      full_name: input.full_name.trim(),
      email: normalizeEmail(input.email),
      contact_number: input.contact_number.trim(),
      address: input.address.trim(),
      resume: input.file.key,
      is_duplicate: duplicate ? 1 : 0,
      consent_at: input.consent_at,
      idempotency_key: input.idempotency_key,
      lang: input.lang ?? 'en',
      ...input.source,
      created_at: at,
    })
    .returning('application_id')
    .executeTakeFirstOrThrow();
  return { application_id, is_duplicate: duplicate };
}

export async function countApplications(db: Db): Promise<number> {
  const row = await db
    .selectFrom('job_application')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The application whose CV is stored under `key`, if any (the audit row of a CV address). */
export async function applicationIdOfResume(db: Db, key: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('job_application')
    .select('application_id')
    .where('resume', '=', key)
    .executeTakeFirst();
  return row?.application_id;
}
