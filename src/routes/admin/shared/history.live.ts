import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import { loadRevision, loadRevisions, restoreRevision } from '../../../api/revisions';
import { showToast } from '../../../components/toasts';
import { revisionHistoryMachine } from '../../../machines/revision-history.machine';
import { toastFailure, toastTheirs } from './admin-toasts';

/**
 * The History view with its live effects: the revisions from /api/admin/revisions, a restore, and
 * the toasts. `onRestored` gets the record as it is after a restore (the editor closes, the list
 * shows it).
 */
export const historyLive = (i18n: I18n, onRestored: (row: unknown) => void) =>
  revisionHistoryMachine.provide({
    actors: {
      loadRevisions: fromPromise(({ input }) => loadRevisions(input.entity, input.recordId)),
      loadRevision: fromPromise(({ input }) => loadRevision(input.entity, input.recordId, input.revisionId)),
      restoreRevision: fromPromise(({ input }) =>
        restoreRevision(input.entity, input.recordId, input.revisionId, input.version),
      ),
    },
    actions: {
      notifyRestored: (_, { row, revision }) => {
        showToast('success', {
          title: i18n.t('admin:toast.success'),
          message: i18n.t('admin:history.restored', {
            when: new Date(revision.at).toLocaleString(i18n.language, {
              dateStyle: 'medium',
              timeStyle: 'short',
            }),
          }),
        });
        onRestored(row);
      },
      notifyFailed: (_, { error }) =>
        toastFailure(error, {
          title: i18n.t('admin:toast.error'),
          message: i18n.t('admin:history.actionFailed'),
        }),
      notifyOvertaken: (_, { changedBy }) => toastTheirs(i18n, changedBy, 'overtaken'),
    },
  });
