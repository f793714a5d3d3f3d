import type { JobStatus, WorkType } from '../../contract/jobs';
import type { SourceColumns } from './analytics.schema';
import type { Generated } from 'kysely';

/**
 * Tables of the careers area (migrations 0300-0399): job types, job openings, job applications
 * and the stored files they reference. `Database` in schema.ts extends this interface.
 * Timestamps are ISO 8601 strings in UTC; flags are 0/1 integers on both databases.
 */
export interface JobTypeTable {
  job_type_id: Generated<number>;
  job_type_name: string;
  created_at: string;
}

export interface JobOpeningTable {
  job_id: Generated<number>;
  job_title: string;
  department: string;
  location: string;
  /** onsite, hybrid or remote (migration 2940). */
  work_type: Generated<WorkType>;
  /** ISO 3166-1 alpha-2, or '' for a remote opening that names none (migration 2940). */
  country: Generated<string>;
  /** City or region, or '' (migration 2940). */
  locality: Generated<string>;
  job_type_id: number;
  /** Rich text (HTML, sanitised when stored). */
  description: string;
  requirement: string;
  about_role: string;
  responsibility: string;
  /** Plain text of the four rich-text fields, for the full-text index (kept by jobs.repo.ts). */
  search_text: string;
  created_at: string;
  updated_at: string;
  /** 1 when created, one more at each change (the conflict check, docs/decisions/022). */
  version: Generated<number>;
  /** Draft, Open or Closed (migration 1500): only Open ones are public. */
  status: Generated<JobStatus>;
}

/** A file in the storage (server/storage): its generated key and what the upload check found. */
export interface StoredFileTable {
  file_key: string;
  /** 'cv' for résumés; other areas add their own kinds. */
  kind: string;
  /** The content type the content check decided, never the one the client declared. */
  content_type: string;
  byte_size: number;
  /** The uploaded name, cleaned; shown to staff only, never used as a path. */
  original_name: string;
  created_at: string;
}

export interface JobApplicationTable extends SourceColumns {
  application_id: Generated<number>;
  /** null once the opening is deleted; `job_title` still names it. */
  job_id: number | null;
  /** The title of the job applied for, as it was when the application came (null for rows older than migration 1300 whose opening was gone). */
  job_title: string | null;
  full_name: string;
  /** Trimmed and lower-cased, so a repeat application is recognised. */
  email: string;
  contact_number: string;
  address: string;
  /** stored_file.file_key of the CV. */
  resume: string;
  /** Recruiting status for the admin (issue of the application list); new rows are 'New'. */
  status: Generated<string>;
  /** 1 when the same email had already applied to the same job. */
  is_duplicate: Generated<number>;
  /** When the applicant ticked the consent box. */
  consent_at: string;
  /** The Idempotency-Key header of the request that stored the row (unique when present). */
  idempotency_key: string | null;
  created_at: string;
  /** 1 when received, one more at each change of its status (docs/decisions/022). */
  version: Generated<number>;
  /** The language of the page the candidate applied from (migration 2500). */
  lang: Generated<string>;
}

/** A candidate mail template staff saved for one language (migration 2500). */
export interface CandidateMailTemplateTable {
  template: string;
  lang: string;
  subject: string;
  body: string;
  version: number;
  updated_at: string;
}

/** A staff member's note on an application (migration 2400): plain text, deleted with it. */
export interface ApplicationNoteTable {
  note_id: Generated<number>;
  application_id: number;
  /** null once the author's account is deleted; `author_email` still names them. */
  author_id: number | null;
  author_email: string;
  text: string;
  created_at: string;
}

export interface JobsTables {
  job_type: JobTypeTable;
  job_opening: JobOpeningTable;
  stored_file: StoredFileTable;
  job_application: JobApplicationTable;
  application_note: ApplicationNoteTable;
  candidate_mail_template: CandidateMailTemplateTable;
}
