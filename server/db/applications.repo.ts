import type { Kysely } from 'kysely';
import { recordStoredFile } from './files.repo';
import type { Database } from './schema';

/**
 * Job applications as the public form stores them. Plain functions taking `db` first. The admin
 * list, status changes, deletion and export belong to the admin issue and may build on these.
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
 * Stores the CV's file row and the application in one transaction (with `alsoIn`'s writes); answers
 * the new id and whether it was flagged as a duplicate.
 */
export async function insertApplication(
  db: Db,
  input: NewApplication,
  now = new Date(),
  /** More writes of the same transaction (the mails the application causes). */
  alsoIn?: (trx: Db) => Promise<void>,
): Promise<{ application_id: number; is_duplicate: boolean }> {
  return db.transaction().execute(async (trx) => {
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
        full_name: input.full_name.trim(),
        email: normalizeEmail(input.email),
        contact_number: input.contact_number.trim(),
        address: input.address.trim(),
        resume: input.file.key,
        is_duplicate: duplicate ? 1 : 0,
        consent_at: input.consent_at,
        idempotency_key: input.idempotency_key,
        created_at: at,
      })
      .returning('application_id')
      .executeTakeFirstOrThrow();
    await alsoIn?.(trx);
    return { application_id, is_duplicate: duplicate };
  });
}

/** The next id a row would get, for the honeypot's normal-looking answer. */
export async function nextApplicationId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('job_application')
    .select((eb) => eb.fn.max('application_id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
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
