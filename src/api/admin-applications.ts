import { config } from '../config';
import { adminDelete, adminWrite, fetchJson, toQuery, versioned } from './client';
import {
  ApplicationDeleteAnswer,
  ApplicationListRow as ApplicationListRowSchema,
  ApplicationListRows,
  ApplicationStatusAnswer,
  type ApplicationFilters,
  type ApplicationListRow,
  type ApplicationStatus,
} from '../../contract/admin-applications';
import {
  Timeline as TimelineSchema,
  NoteAnswer,
  type Timeline,
} from '../../contract/application-timeline';
import { PresignedUrlResponse } from '../../contract/blog';
import {
  CandidateMailTemplate as CandidateMailTemplateSchema,
  CandidateMailTemplates,
  TemplateAnswer,
  type CandidateMailBody,
  type CandidateMailTemplate,
  type CandidateTemplate,
} from '../../contract/candidate-mail';

/**
 * The admin's job applications. The list is the spec's call on the website API base;
 * status, deletion and the CSV export are this server's additions on the same origin. Writes carry
 * the CSRF header besides the browser's Origin. Nothing here is cached: it is applicants' data.
 */

export interface ApplicationPageQuery extends ApplicationFilters {
  page: number;
  pageSize: number;
}

/** Query parameters of the list and the export, as the spec names them (empty ones are sent). */
function filterQuery(f: ApplicationFilters) {
  return {
    search: f.search.trim(),
    startdate: f.startdate,
    enddate: f.enddate,
    ...(f.status ? { status: f.status } : {}),
    ...(f.job_id ? { job_id: f.job_id } : {}),
    ...(f.applicationid ? { applicationid: f.applicationid } : {}),
  };
}

/** GET {website API}/bind-job-applications */
export function loadApplications(q: ApplicationPageQuery, init?: RequestInit): Promise<ApplicationListRow[]> {
  const query = toQuery({
    // the spec's default, 0 (every application), unless the filters name one
    applicationid: 0,
    ...filterQuery(q),
    pagenum: q.page,
    pagesize: q.pageSize,
  });
  return fetchJson(ApplicationListRows, `${config.websiteApi}/bind-job-applications?${query}`, {
    cache: 'no-store',
    ...init,
  });
}

/** The address of the CSV of every application matching the filters (a download, streamed). */
export function exportCsvUrl(f: ApplicationFilters): string {
  return `/api/admin/job-applications/export.csv?${toQuery(filterQuery(f))}`;
}

/**
 * Moves an application to `status`, based on the version the screen shows (a `VersionConflict`
 * with the application as it is now when someone moved it meanwhile).
 */
export function saveApplicationStatus(
  applicationId: number,
  status: ApplicationStatus,
  version: number,
): Promise<ApplicationListRow> {
  return versioned(
    ApplicationListRowSchema,
    fetchJson(
      ApplicationStatusAnswer,
      `/api/admin/job-applications/${applicationId}/status`,
      adminWrite({ status }, 'POST', version),
    ),
  ).then((a) => a.row);
}

export function deleteApplication(applicationId: number): Promise<{ message: string }> {
  return fetchJson(ApplicationDeleteAnswer, `/api/admin/job-applications/${applicationId}`, adminDelete());
}

/** GET {website API}/GetPresignedUrl for a CV: a signed address valid for at most 5 minutes. */
export async function signedResumeUrl(key: string): Promise<string> {
  const { url } = await fetchJson(
    PresignedUrlResponse,
    `${config.websiteApi}/GetPresignedUrl?${toQuery({ s3_key: key })}`,
    {
      cache: 'no-store',
    },
  );
  return url;
}

/** GET /api/admin/job-applications/{id}/timeline: what happened to it, and whom a note can mention. */
export function loadTimeline(applicationId: number, init?: RequestInit): Promise<Timeline> {
  return fetchJson(TimelineSchema, `/api/admin/job-applications/${applicationId}/timeline`, {
    cache: 'no-store',
    ...init,
  });
}

/** POST /api/admin/job-applications/{id}/notes: answers the timeline with the new note. */
export function addNote(applicationId: number, text: string): Promise<Timeline> {
  return fetchJson(
    NoteAnswer,
    `/api/admin/job-applications/${applicationId}/notes`,
    adminWrite({ text }),
  ).then((a) => a.timeline);
}

/** GET /api/admin/candidate-mail-templates?lang=: the three templates of a language. */
export function loadMailTemplates(lang: string, init?: RequestInit): Promise<CandidateMailTemplate[]> {
  return fetchJson(CandidateMailTemplates, `/api/admin/candidate-mail-templates?${toQuery({ lang })}`, {
    cache: 'no-store',
    ...init,
  });
}

/**
 * PUT /api/admin/candidate-mail-templates/{template}/{lang}, based on `version` (a
 * `VersionConflict` with the template as it is now when a colleague saved it meanwhile).
 */
export function saveMailTemplate(
  t: { template: CandidateTemplate; lang: string; subject: string; body: string },
  version: number,
): Promise<CandidateMailTemplate> {
  return versioned(
    CandidateMailTemplateSchema,
    fetchJson(
      TemplateAnswer,
      `/api/admin/candidate-mail-templates/${t.template}/${t.lang}`,
      adminWrite({ subject: t.subject, body: t.body }, 'PUT', version),
    ),
  ).then((a) => a.template);
}

/** POST /api/admin/job-applications/{id}/mails: answers the timeline with the mail on it. */
export function sendCandidateMail(applicationId: number, mail: CandidateMailBody): Promise<Timeline> {
  return fetchJson(NoteAnswer, `/api/admin/job-applications/${applicationId}/mails`, adminWrite(mail)).then(
    (a) => a.timeline,
  );
}
