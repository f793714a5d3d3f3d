import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import { addNote, loadTimeline } from '../../api/admin-applications';
import { showToast } from '../../components/toasts';
import { applicationTimelineMachine } from '../../machines/application-timeline.machine';

/**
 * An application's timeline with its live effects: the timeline from the server (aborted when the
 * modal closes), a note saved, and a toast in the language of the moment it appears.
 */
export const applicationTimelineLive = (i18n: I18n) =>
  applicationTimelineMachine.provide({
    actors: {
      loadTimeline: fromPromise(({ input, signal }) => loadTimeline(input.applicationId, { signal })),
      saveNote: fromPromise(({ input }) => addNote(input.applicationId, input.text)),
    },
    actions: {
      notifyNoteSaved: () =>
        showToast('success', { message: i18n.t('timeline.noteAdded', { ns: 'admin-inbox' }) }),
    },
  });
