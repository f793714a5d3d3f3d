import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import { JOB_FORM_FIELDS, type JobFormValues } from '../../../../contract/jobs-admin';
import { loadJobTypes } from '../../../api/jobs';
import { loadAdminOpenings, manageJobOpening, saveOpeningStatus } from '../../../api/jobs-admin';
import { showToast } from '../../../components/toasts';
import { adminOpeningsMachine, openingsList, openingsQueued } from '../../../machines/admin-openings.machine';
import type { QueuedJobChange } from '../../../machines/job-form.machine';
import type { OutboxItem } from '../../../offline/send-queue';
import { queuedLive } from '../shared/queued-changes.live';
import { toastFailure, toastTheirs } from '../shared/admin-toasts';
import { connectionEvents } from '../../../offline/online-status';
import { listChanges } from '../shared/staff-changes';

/** The form values a queued change kept, when they are whole (an older build's may not be). */
const formValues = (value: unknown): JobFormValues | null =>
  value &&
  typeof value === 'object' &&
  JOB_FORM_FIELDS.every((f) => typeof (value as JobFormValues)[f] === 'string')
    ? (value as JobFormValues)
    : null;

/** A change kept in the send queue, as the job form takes it up; null when it cannot be read. */
function jobChangeOf(item: OutboxItem): QueuedJobChange | null {
  const base = formValues(item.edit?.base);
  const values = formValues(item.edit?.values);
  if (!item.edit || !base || !values) return null;
  return {
    id: item.id,
    recordId: item.edit.recordId,
    version: item.edit.version,
    original: null,
    base,
    values,
    file: null,
  };
}

/**
 * Current Openings with its live effects: a page of openings (never from a cache) with the job
 * types, deletion, the toasts, the page written to the address by the screen's router, and this
 * person's (`owner`) changes made offline: told when one is sent or meets someone else's, and
 * read from the queue for the job form to take up.
 */
export const openingsLive = (i18n: I18n, writeAddress: (page: number) => void, owner: number) =>
  adminOpeningsMachine.provide({
    actors: {
      list: openingsList.provide({
        actors: {
          // a page that failed offline loads again when the connection is back
          connectionEvents,
          // a colleague's change shows without a reload
          changeEvents: listChanges([
            'opening.added',
            'opening.edited',
            'opening.status_changed',
            'opening.deleted',
            'application.received',
            'application.status_changed',
            'application.deleted',
          ]),
          loadPage: fromPromise(async ({ input, signal }) => {
            const [rows, jobTypes] = await Promise.all([
              loadAdminOpenings({ pagenum: input.page, pagesize: input.pageSize }, { signal }),
              loadJobTypes(),
            ]);
            return { rows, meta: { jobTypes } };
          }),
        },
        actions: { showPage: (_, { page }) => writeAddress(page) },
      }),
      deleteJob: fromPromise(({ input }) => manageJobOpening({ mode: 3, job_id: input.jobId })),
      saveStatus: fromPromise(({ input: { job, status, ...closing } }) =>
        saveOpeningStatus(job, status, closing),
      ),
      queued: queuedLive(openingsQueued, { kind: 'job-opening', owner, read: jobChangeOf, i18n }),
    },
    actions: {
      notifyDeleted: () =>
        showToast('success', {
          title: i18n.t('admin:toast.success'),
          message: i18n.t('admin:jobToast.deleted'),
        }),
      notifyStatusChanged: (_, { row, rejected, mailed }) =>
        showToast('success', {
          title: i18n.t('admin:toast.success'),
          message: [
            i18n.t('admin:openings.statusChanged', {
              title: row.job_title,
              status: i18n.t(`admin:openings.statuses.${row.status ?? 'Open'}`),
            }),
            rejected ? i18n.t('admin:openings.closeAsk.rejected', { count: rejected }) : '',
            mailed ? i18n.t('admin:openings.closeAsk.mailed', { count: mailed }) : '',
          ]
            .filter(Boolean)
            .join(' '),
        }),
      notifyStatusFailed: (_, { error }) =>
        toastFailure(error, {
          title: i18n.t('admin:toast.error'),
          message: i18n.t('admin:openings.statusFailed'),
          serverWords: false,
        }),
      notifyOvertaken: (_, { changedBy }) => toastTheirs(i18n, changedBy, 'overtaken'),
      notifyDeleteFailed: (_, { error }) =>
        toastFailure(error, {
          title: i18n.t('admin:toast.error'),
          message: i18n.t('admin:jobToast.deleteFailed'),
        }),
    },
  });
