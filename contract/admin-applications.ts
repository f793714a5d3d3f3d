import { z } from 'zod/mini';
import { ID_MAX, idText, whole } from './ids';
import { PAGE_NUMBER_MAX } from './paging';

/**
 * The admin's list of job applications:
 * GET bind-job-applications, and our additions under /api/admin: status, deletion, CSV export.
 * Shared by the server (request validation) and the browser (answer checks). Imports only zod.
 */

/** The application list shows 20 a page. */
export const APPLICATION_PAGE_SIZE = 20;

/** The recruiting status of an application; new rows are 'New'. */
export const APPLICATION_STATUSES = ['New', 'Reviewed', 'Interview', 'Offer', 'Rejected', 'Hired'] as const;
export const ApplicationStatus = z.enum(APPLICATION_STATUSES);
export type ApplicationStatus = z.infer<typeof ApplicationStatus>;

export const APPLICATION_LIST_MESSAGES = {
  dateFormat: 'Use a date like 2025-08-06 (YYYY-MM-DD)',
  dateRange: 'Start Date must be on or before End Date',
  notFound: 'Application not found',
  statusUpdated: 'Status updated',
  deleted: 'Application and CV deleted',
} as const;

/** Whether `value` is a real calendar day written YYYY-MM-DD (2025-02-30 is not). */
export function isIsoDay(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1900 || y > 9999 || mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

/** '' (no filter) or a real day. */
const day = z.string().check(
  z.maxLength(10, APPLICATION_LIST_MESSAGES.dateFormat),
  z.refine((v) => v === '' || isIsoDay(v), APPLICATION_LIST_MESSAGES.dateFormat),
);

/** The filters shared by the list and the CSV export. */
const filterShape = {
  search: z._default(z.string().check(z.maxLength(200)), ''),
  applicationid: z._default(whole(0, ID_MAX), 0),
  startdate: z._default(day, ''),
  enddate: z._default(day, ''),
  /** Our addition: '' for every status. */
  status: z._default(z.union([z.literal(''), ApplicationStatus]), ''),
  /** Our addition: one opening's applications (0 for every opening). */
  job_id: z._default(whole(0, ID_MAX), 0),
};

/**
 * GET bind-job-applications?search=&applicationid=&pagenum=&pagesize=&startdate=&enddate=&status=&job_id=
 * Dates are inclusive days in UTC. A start after the end is refused by the server (400).
 */
export const BindJobApplicationsQuery = z.object({
  ...filterShape,
  pagenum: z._default(whole(1, PAGE_NUMBER_MAX), 1),
  pagesize: z._default(whole(1, 100), APPLICATION_PAGE_SIZE),
});
export type BindJobApplicationsQuery = z.output<typeof BindJobApplicationsQuery>;

/** GET /api/admin/job-applications/export.csv: the same filters, every page. */
export const ExportApplicationsQuery = z.object(filterShape);
export type ExportApplicationsQuery = z.output<typeof ExportApplicationsQuery>;

/** Filters as the screen keeps them (and as the address bar shows them). */
export interface ApplicationFilters {
  search: string;
  startdate: string;
  enddate: string;
  status: ApplicationStatus | '';
  /** One opening's applications: its id as digits, or '' for every opening. */
  job_id: string;
  /** One application (a staff notice's link, `?application=`): its id as digits, or ''. */
  applicationid: string;
}

/** The field and message when the range is the wrong way round, else null. */
export function dateRangeError(
  startdate: string,
  enddate: string,
): { field: 'startdate'; message: string } | null {
  if (startdate && enddate && isIsoDay(startdate) && isIsoDay(enddate) && startdate > enddate) {
    return { field: 'startdate', message: APPLICATION_LIST_MESSAGES.dateRange };
  }
  return null;
}

/**
 * One application as the admin sees it, plus
 * application_id, job_id, status, is_duplicate and consent_at. `job_title`
 * is null when the opening was deleted (the screen shows 'N/A'); `resume` is the storage key, read
 * through GetPresignedUrl. `total_count` is on the first row of a page.
 */
export const ApplicationListRow = z.object({
  application_id: z.number().check(z.int()),
  job_id: z.nullable(z.number().check(z.int())),
  full_name: z.string(),
  email: z.string(),
  /** E.164 (`+4930901820`); applications of a customer's backend may hold any text. */
  contact_number: z.string(),
  /** The number as people read it (`+49 30 901820`); absent from a customer's backend: the number as is. */
  contact_display: z.optional(z.string()),
  /** The postal address the candidate gave. */
  address: z.string(),
  job_title: z.nullable(z.string()),
  applied_date: z.string(),
  resume: z.string(),
  status: z.string(),
  is_duplicate: z.boolean(),
  consent_at: z.string(),
  /** One more at each change of the status (docs/decisions/022); sent back as If-Match. */
  version: z.optional(z.number().check(z.int())),
  /** The language of the page the candidate applied from: the default of mails to them. */
  lang: z.optional(z.string()),
  total_count: z.optional(z.number().check(z.int())),
});
export type ApplicationListRow = z.infer<typeof ApplicationListRow>;
export const ApplicationListRows = z.array(ApplicationListRow);

/** POST /api/admin/job-applications/{application_id}/status */
export const ApplicationIdParams = z.object({
  application_id: idText('Expected an application id'),
});
export const ApplicationStatusBody = z.object({ status: ApplicationStatus });
export type ApplicationStatusBody = z.infer<typeof ApplicationStatusBody>;
export const ApplicationStatusAnswer = z.object({ message: z.string(), row: ApplicationListRow });
export type ApplicationStatusAnswer = z.infer<typeof ApplicationStatusAnswer>;

/** DELETE /api/admin/job-applications/{application_id}: the row and its CV. */
export const ApplicationDeleteAnswer = z.object({ message: z.string() });

/** The columns of the CSV export, in order. */
export const APPLICATION_CSV_COLUMNS = [
  'application_id',
  'full_name',
  'email',
  'contact_number',
  'address',
  'job_title',
  'applied_date',
  'status',
  'is_duplicate',
  'consent_at',
  /** Staff's notes, oldest first: "time, author: text", a blank line between two. */
  'notes',
] as const;
