import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import {
  deleteApplication,
  loadApplications,
  saveApplicationStatus,
  signedResumeUrl,
} from '../../../api/admin-applications';
import type { ApplicationListRow } from '../../../../contract/admin-applications';
import { showToast } from '../../../components/toasts';
import { applicationDetailMachine } from '../../../machines/application-detail.machine';
import {
  addressOf,
  applicationsList,
  applicationsListMachine,
} from '../../../machines/applications-list.machine';
import { toastFailure, toastTheirs } from '../shared/admin-toasts';
import { connectionEvents } from '../../../offline/online-status';
import { listChanges } from '../shared/staff-changes';

/** The applications list with its live effects: a page from the server; the view written to the address. */
export const applicationsListLive = (writeAddress: (query: string) => void) =>
  applicationsListMachine.provide({
    actors: {
      list: applicationsList.provide({
        actors: {
          // a page that failed offline loads again when the connection is back
          connectionEvents,
          // a colleague's change shows without a reload
          changeEvents: listChanges([
            'application.received',
            'application.status_changed',
            'application.deleted',
          ]),
          loadPage: fromPromise(({ input, signal }) =>
            loadApplications({ ...input.query, page: input.page, pageSize: input.pageSize }, { signal }),
          ),
        },
        actions: { showPage: (_, { query, page }) => writeAddress(addressOf(query, page)) },
      }),
    },
  });

/** What the detail modal tells the list it belongs to. */
export interface ListUpdates {
  updated(row: ApplicationListRow): void;
  deleted(): void;
}

/**
 * The Application Details modal with its live effects: a short-lived address of the CV, the
 * status, deletion with the CV, the list told of each, and the toasts, written in the language
 * of the moment they appear.
 */
export const applicationDetailLive = (i18n: I18n, list: ListUpdates) => {
  const say = (key: string, options?: Record<string, unknown>) =>
    i18n.t(key, { ns: 'admin-inbox', ...options });
  return applicationDetailMachine.provide({
    actors: {
      signResume: fromPromise(({ input }) => signedResumeUrl(input.key)),
      saveStatus: fromPromise(({ input }) =>
        saveApplicationStatus(input.applicationId, input.status, input.version),
      ),
      deleteApplication: fromPromise(({ input }) => deleteApplication(input.applicationId)),
    },
    actions: {
      notifyStatusSaved: (_, { row }) => {
        list.updated(row);
        showToast('success', { message: say('toast.statusSaved', { status: say(`status.${row.status}`) }) });
      },
      notifyOvertaken: (_, { row, changedBy }) => {
        list.updated(row);
        toastTheirs(i18n, changedBy, 'overtaken');
      },
      notifyStatusFailed: (_, { error }) => toastFailure(error, { message: say('toast.statusFailed') }),
      notifyDeleted: () => {
        list.deleted();
        showToast('success', { message: say('toast.deleted') });
      },
      notifyDeleteFailed: (_, { error }) => toastFailure(error, { message: say('toast.deleteFailed') }),
    },
  });
};
