import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import { addNote, loadTimeline } from '../../../api/admin-applications';
import { loadMessageThread, sendReply } from '../../../api/admin-messages';
import type { Timeline } from '../../../../contract/application-timeline';
import { showToast } from '../../../components/toasts';
import type { StaffEventType } from '../../../../contract/staff-events';
import { recordTimelineMachine, type SavedNote } from '../../../machines/record-timeline.machine';
import { recordChanges } from './staff-changes';

/**
 * A record's timeline with its live effects: the timeline from the server (aborted when it
 * closes), a text sent (with the record it changed), and a toast in the language of the moment it
 * appears. One for an application (notes) and one for a contact message (replies to its writer,
 * which mark it handled).
 */
const timelineLive =
  (
    load: (id: number, init: RequestInit) => Promise<Timeline>,
    save: (id: number, text: string) => Promise<SavedNote>,
    savedText: string,
    /** The staff events that change this kind of record's timeline. */
    changes: readonly StaffEventType[],
  ) =>
  (i18n: I18n) =>
    recordTimelineMachine.provide({
      actors: {
        loadTimeline: fromPromise(({ input, signal }) => load(input.recordId, { signal })),
        saveNote: fromPromise(({ input }) => save(input.recordId, input.text)),
        // a colleague's note or status change, a mail delivered: shown without a reload
        changeEvents: recordChanges(changes),
      },
      actions: {
        notifyNoteSaved: () => showToast('success', { message: i18n.t(savedText, { ns: 'admin-inbox' }) }),
      },
    });

export const applicationTimelineLive = timelineLive(
  loadTimeline,
  (id, text) => addNote(id, text).then((timeline) => ({ timeline })),
  'timeline.noteAdded',
  ['application.timeline_changed', 'application.status_changed'],
);
export const messageThreadLive = timelineLive(loadMessageThread, sendReply, 'thread.replySent', [
  'message.changed',
]);
