import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { samplePdf } from '../../tests/fixtures/files';
import { insertApplication } from './applications.repo';
import { createOpening, ensureJobType } from './jobs.repo';

/** For server tests of the admin's application list: openings and applications with real CV files. */

export async function addOpening(app: FastifyInstance, title: string): Promise<number> {
  const type = await ensureJobType(app.db, 'Full-time');
  const row = await createOpening(app.db, {
    job_title: title,
    department: 'Editorial',
    location: 'Kochi, India',
    job_type_id: type.job_type_id,
    description: '<p>Edit manuscripts for clarity and style.</p>',
    requirement: '<ul><li>Three years of copy editing</li></ul>',
    about_role: '<p>You will work with journal editors.</p>',
    responsibility: '<ul><li>Copy edit accepted papers</li></ul>',
  });
  return row.job_id;
}

export interface SampleApplication {
  jobId: number | null;
  name: string;
  email: string;
  number?: string;
  /** When it was stored (applied_date). */
  at: Date;
}

/** Stores a CV in app.storage and the application row, as the public form would. */
export async function addApplication(app: FastifyInstance, a: SampleApplication) {
  const key = await app.storage.put(Readable.from([samplePdf(`${a.name} - CV`)]), {
    prefix: 'cv',
    ext: 'pdf',
    contentType: 'application/pdf',
  });
  const { application_id } = await app.db.transaction().execute((trx) =>
    insertApplication(
      trx,
      {
        job_id: a.jobId as number,
        full_name: a.name,
        email: a.email,
        contact_number: a.number ?? '9876543210',
        address: '12 MG Road, Kochi',
        consent_at: a.at.toISOString(),
        idempotency_key: null,
        file: { key, content_type: 'application/pdf', byte_size: 100, original_name: `${a.name} CV.pdf` },
      },
      a.at,
    ),
  );
  return { application_id, key };
}
