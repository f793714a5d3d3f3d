import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import { loadJobTypes } from '../../api/jobs';
import { loadAdminOpenings, manageJobOpening, saveOpeningStatus } from '../../api/jobs-admin';
import { showToast } from '../../components/toasts';
import { adminOpeningsMachine, openingsList } from '../../machines/admin-openings.machine';
import { toastFailure, toastTheirs } from './admin-toasts';

/**
 * Current Openings with its live effects: a page of openings (never from a cache) with the job
 * types, deletion, the toasts, and the page written to the address by the screen's router.
 */
export const openingsLive = (i18n: I18n, writeAddress: (page: number) => void) =>
  adminOpeningsMachine.provide({
    actors: {
      list: openingsList.provide({
        actors: {
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
      saveStatus: fromPromise(({ input }) => saveOpeningStatus(input.job, input.status)),
    },
    actions: {
      notifyDeleted: () =>
        showToast('success', {
          title: i18n.t('admin:toast.success'),
          message: i18n.t('admin:jobToast.deleted'),
        }),
      notifyStatusChanged: (_, { row }) =>
        showToast('success', {
          title: i18n.t('admin:toast.success'),
          message: i18n.t('admin:openings.statusChanged', {
            title: row.job_title,
            status: i18n.t(`admin:openings.statuses.${row.status ?? 'Open'}`),
          }),
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
