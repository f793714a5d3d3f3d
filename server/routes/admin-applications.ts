import { Readable } from 'node:stream';
import { versionOfRequest } from '../lib/versions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApplicationDeleteAnswer,
  ApplicationIdParams,
  ApplicationListRows,
  ApplicationStatusAnswer,
  ApplicationStatusBody,
  BindJobApplicationsQuery,
  ExportApplicationsQuery,
} from '../../contract/admin-applications';
import { Timeline, NoteAnswer, NoteBody } from '../../contract/application-timeline';
import * as applications from '../services/applications';
import * as timeline from '../services/application-timeline';
import * as candidateMail from '../services/candidate-mail';
import {
  CandidateMailBody,
  CandidateMailTemplates,
  TemplateAnswer,
  TemplateBody,
  TemplateParams,
  TemplatesQuery,
} from '../../contract/candidate-mail';

/**
 * The admin's job applications (services/applications.ts):
 * - GET  /api/bind-job-applications (applications.read): filtered page, newest first;
 * - POST /api/admin/job-applications/{id}/status (applications.manage, audited) with If-Match
 *   (428 without; 409 with the application as it is now when its status changed meanwhile);
 * - DELETE /api/admin/job-applications/{id} (applications.manage): the row and its CV; the audit
 *   row keeps only that a deletion happened;
 * - GET  /api/admin/job-applications/export.csv (applications.read): every matching row, streamed;
 * - GET  /api/admin/job-applications/{id}/timeline (applications.read): what happened to it, oldest
 *   first (services/application-timeline.ts);
 * - POST /api/admin/job-applications/{id}/notes (applications.read: whoever reads an application
 *   may note on it): a note; mentioned colleagues are mailed a notice. Answers the new timeline;
 * - POST /api/admin/job-applications/{id}/mails (applications.manage): a mail to the candidate
 *   (services/candidate-mail.ts); answers the new timeline;
 * - GET  /api/admin/candidate-mail-templates?lang= (applications.read): the templates of a language;
 * - PUT  /api/admin/candidate-mail-templates/{template}/{lang} (applications.manage, If-Match).
 */
const adminApplications: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/bind-job-applications',
    {
      config: { permission: 'applications.read' },
      schema: { querystring: BindJobApplicationsQuery, response: { 200: ApplicationListRows } },
    },
    async (request, reply) => {
      const rows = await applications.listApplications(app.services(request), request.query);
      reply.header('cache-control', 'private, no-store');
      return rows;
    },
  );

  app.post(
    '/admin/job-applications/:application_id/status',
    {
      config: { permission: 'applications.manage' },
      schema: {
        params: ApplicationIdParams,
        body: ApplicationStatusBody,
        response: { 200: ApplicationStatusAnswer },
      },
    },
    async (request) =>
      applications.setStatus(
        app.services(request),
        Number(request.params.application_id),
        request.body.status,
        versionOfRequest(request.headers),
      ),
  );

  app.delete(
    '/admin/job-applications/:application_id',
    {
      config: { permission: 'applications.manage' },
      schema: { params: ApplicationIdParams, response: { 200: ApplicationDeleteAnswer } },
    },
    async (request) =>
      applications.deleteApplication(app.services(request), Number(request.params.application_id)),
  );

  app.get(
    '/admin/job-applications/export.csv',
    { config: { permission: 'applications.read' }, schema: { querystring: ExportApplicationsQuery } },
    async (request, reply) => {
      const lines = await applications.exportApplications(app.services(request), request.query);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="job-applications-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(lines, { objectMode: false }));
    },
  );

  app.get(
    '/admin/job-applications/:application_id/timeline',
    {
      config: { permission: 'applications.read' },
      schema: { params: ApplicationIdParams, response: { 200: Timeline } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return timeline.timelineOf(app.services(request), Number(request.params.application_id));
    },
  );

  app.post(
    '/admin/job-applications/:application_id/notes',
    {
      config: { permission: 'applications.read' },
      schema: { params: ApplicationIdParams, body: NoteBody, response: { 201: NoteAnswer } },
    },
    async (request, reply) => {
      const answer = await timeline.addNote(
        app.services(request),
        Number(request.params.application_id),
        request.body.text,
      );
      return reply.code(201).send(answer);
    },
  );

  app.post(
    '/admin/job-applications/:application_id/mails',
    {
      config: { permission: 'applications.manage' },
      schema: { params: ApplicationIdParams, body: CandidateMailBody, response: { 201: NoteAnswer } },
    },
    async (request, reply) => {
      const answer = await candidateMail.sendCandidateMail(
        app.services(request),
        Number(request.params.application_id),
        request.body,
      );
      return reply.code(201).send(answer);
    },
  );

  app.get(
    '/admin/candidate-mail-templates',
    {
      config: { permission: 'applications.read' },
      schema: { querystring: TemplatesQuery, response: { 200: CandidateMailTemplates } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return candidateMail.templatesFor(app.services(request), request.query.lang);
    },
  );

  app.put(
    '/admin/candidate-mail-templates/:template/:lang',
    {
      config: { permission: 'applications.manage' },
      schema: { params: TemplateParams, body: TemplateBody, response: { 200: TemplateAnswer } },
    },
    async (request) =>
      candidateMail.saveTemplate(
        app.services(request),
        request.params.template,
        request.params.lang,
        request.body,
        versionOfRequest(request.headers),
      ),
  );
};

export default adminApplications;
