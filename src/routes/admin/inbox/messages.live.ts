import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import {
  deleteMessage,
  loadAssignees,
  loadMessages,
  saveAssignee,
  saveMessageHandled,
} from '../../../api/admin-messages';
import { showToast } from '../../../components/toasts';
import { messagesList, messagesListMachine, type ShowFilter } from '../../../machines/messages-list.machine';
import { toastFailure, toastTheirs } from '../shared/admin-toasts';
import { connectionEvents } from '../../../offline/online-status';
import { listChanges } from '../shared/staff-changes';

const HANDLED_PARAM: Record<ShowFilter, '' | 'true' | 'false'> = { all: '', open: 'false', handled: 'true' };

/**
 * The Messages screen with its live effects: a page of the contact inbox (search, open or
 * handled), saving the handled flag, and the toasts, written in the language of the moment they
 * appear.
 */
export const messagesLive = (i18n: I18n) => {
  const say = (key: string) => i18n.t(key, { ns: 'admin-inbox' });
  return messagesListMachine.provide({
    actors: {
      list: messagesList.provide({
        actors: {
          // a page that failed offline loads again when the connection is back
          connectionEvents,
          // a colleague's change (or a mail delivered) shows without a reload
          changeEvents: listChanges(['message.received', 'message.changed', 'message.deleted']),
          loadPage: fromPromise(({ input, signal }) =>
            loadMessages(
              {
                search: input.query.search,
                page: input.page,
                pageSize: input.pageSize,
                handled: HANDLED_PARAM[input.query.show],
                assignee: input.query.assignee,
                message: input.query.message,
              },
              { signal },
            ),
          ),
        },
      }),
      saveHandled: fromPromise(({ input }) =>
        saveMessageHandled(input.messageId, input.handled, input.version),
      ),
      deleteMessage: fromPromise(({ input }) => deleteMessage(input.messageId)),
      saveAssignee: fromPromise(({ input }) => saveAssignee(input.messageId, input.userId, input.version)),
      loadAssignees: fromPromise(({ signal }) => loadAssignees({ signal })),
    },
    actions: {
      notifyHandledSaved: (_, { row }) =>
        showToast('success', { message: say(row.handled ? 'messages.toastHandled' : 'messages.toastOpen') }),
      notifyOvertaken: (_, { changedBy }) => toastTheirs(i18n, changedBy, 'overtaken'),
      notifyHandledFailed: (_, { error }) => toastFailure(error, { message: say('messages.toastFailed') }),
      notifyDeleted: () => showToast('success', { message: say('messages.toastDeleted') }),
      notifyDeleteFailed: (_, { error }) =>
        toastFailure(error, { message: say('messages.toastDeleteFailed') }),
      notifyAssigned: (_, { row }) =>
        showToast('success', {
          message: row.assignee
            ? i18n.t('messages.toastAssigned', { ns: 'admin-inbox', name: row.assignee })
            : say('messages.toastUnassigned'),
        }),
      notifyAssignFailed: (_, { error }) =>
        toastFailure(error, { message: say('messages.toastAssignFailed') }),
    },
  });
};
