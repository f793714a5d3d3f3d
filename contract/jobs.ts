import { z } from 'zod/mini';
import { ID_MAX, whole } from './ids';
import { PAGE_NUMBER_MAX } from './paging';

/**
 * Job openings and job types. Rows keep the spec's snake_case fields;
 * the four rich-text fields are HTML (sanitised on the server when stored, and only ever read as
 * text in the browser). `created_at` is our addition (ISO 8601, UTC) for JobPosting's datePosted;
 * a customer's backend may leave it out.
 */
/**
 * An opening is Draft (being written), Open (on /careers, taking applications) or Closed (kept
 * with its applications, no longer public). Openings are created Draft and published from their
 * card (docs/decisions/032-closing-an-opening.md).
 */
export const JOB_STATUSES = ['Draft', 'Open', 'Closed'] as const;
export const JobStatus = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatus>;
export const OPEN: JobStatus = 'Open';

/**
 * Where the work is done (docs/decisions/031-where-an-opening-is.md): at the office, partly there,
 * or anywhere (`country` then says where applicants may live, when it is set).
 */
export const WORK_TYPES = ['onsite', 'hybrid', 'remote'] as const;
export const WorkType = z.enum(WORK_TYPES);
export type WorkType = z.infer<typeof WorkType>;

export const JobOpeningRow = z.object({
  job_id: z.number().check(z.int()),
  job_title: z.string(),
  department: z.string(),
  location: z.string(),
  /** Our additions (migration 2940), absent from a customer's backend and older copies. */
  work_type: z.optional(WorkType),
  /** ISO 3166-1 alpha-2 code ('' when a remote opening names none). */
  country: z.optional(z.string()),
  /** City or region ('' when a remote opening names none). */
  locality: z.optional(z.string()),
  job_type_id: z.number().check(z.int()),
  job_type_name: z.string(),
  description: z.string(),
  requirement: z.string(),
  about_role: z.string(),
  responsibility: z.string(),
  created_at: z.optional(z.string()),
  /** The version a change sends back (contract/versions.ts); absent in copies kept before it. */
  version: z.optional(z.number().check(z.int())),
  /** Absent from a customer's backend and from copies kept before it: such openings are Open. */
  status: z.optional(JobStatus),
  /** The back office's list: how many applications the opening has. */
  application_count: z.optional(z.number().check(z.int())),
  /** The back office's list: how many of them are at each status (statuses with none left out). */
  application_statuses: z.optional(z.record(z.string(), z.number().check(z.int()))),
  total_count: z.optional(z.number().check(z.int())),
});
export type JobOpeningRow = z.infer<typeof JobOpeningRow>;

export const JobOpeningRows = z.array(JobOpeningRow);

export const JobTypeRow = z.object({
  job_type_id: z.number().check(z.int()),
  job_type_name: z.string(),
});
export type JobTypeRow = z.infer<typeof JobTypeRow>;

export const JobTypeRows = z.array(JobTypeRow);

/** Careers and admin lists use page 1 of 20. */
export const JOB_PAGE_SIZE = 20;

/** GET bind-job-openings: jobid 0 for all; search uses the full-text index. */
export const BindJobOpeningsQuery = z.object({
  jobid: z._default(whole(0, ID_MAX), 0),
  search: z._default(z.string().check(z.maxLength(200)), ''),
  pagenum: z._default(whole(1, PAGE_NUMBER_MAX), 1),
  pagesize: z._default(whole(1, 100), JOB_PAGE_SIZE),
});
export type BindJobOpeningsQuery = z.output<typeof BindJobOpeningsQuery>;

/**
 * An opening's own page is `/careers/{id}-{title in kebab case}` (`/careers/12-managing-editor`):
 * the number finds the opening, the words are for people and search engines. A title without
 * Latin letters or digits leaves the number alone. The server answers any other words after the
 * number with a 301 to this address, so a renamed opening keeps its old links.
 */
export function jobSlug(row: Pick<JobOpeningRow, 'job_id' | 'job_title'>): string {
  const words = row.job_title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)
    .replace(/^-+|-+$/g, '');
  return words ? `${row.job_id}-${words}` : String(row.job_id);
}

export const jobPath = (row: Pick<JobOpeningRow, 'job_id' | 'job_title'>) => `/careers/${jobSlug(row)}`;

/** The opening an address's last segment names (its leading number), or undefined. */
export function jobIdOfSlug(slug: string): number | undefined {
  const m = /^(\d{1,16})(?:-|$)/.exec(slug);
  const id = m ? Number(m[1]) : NaN;
  return Number.isSafeInteger(id) && id > 0 && id <= ID_MAX ? id : undefined;
}
