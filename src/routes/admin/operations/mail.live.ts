import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import { fetchMailSettings, listMail, retryMail } from '../../../api/auth';
import { showToast } from '../../../components/toasts';
import { mailList, mailListMachine } from '../../../machines/mail-list.machine';
import { toastFailure } from '../shared/admin-toasts';
import { connectionEvents } from '../../../offline/online-status';
import { listChanges } from '../shared/staff-changes';

/**
 * The Mail screen's machine with its live effects: a page of the outbox and the mail settings
 * (whether the server sends mail, where replies go), "Send again", and the toasts, written in the
 * language of the moment they appear.
 */
export const mailListLive = (i18n: I18n) => {
  const say = (key: string) => i18n.t(key, { ns: 'admin' });
  return mailListMachine.provide({
    actors: {
      list: mailList.provide({
        actors: {
          // a page that failed offline loads again when the connection is back
          connectionEvents,
          // a colleague's change (or a mail delivered) shows without a reload
          changeEvents: listChanges(['mail.queued', 'mail.delivery']),
          loadPage: fromPromise(async ({ input }) => {
            const [rows, settings] = await Promise.all([
              listMail({
                pagenum: input.page,
                pagesize: input.pageSize,
                ...(input.query.status ? { status: input.query.status } : {}),
              }),
              fetchMailSettings(),
            ]);
            return { rows, meta: settings };
          }),
        },
      }),
      retryMail: fromPromise(({ input }) => retryMail(input.mailId)),
    },
    actions: {
      notifyRetried: () =>
        showToast('success', { title: say('toast.success'), message: say('mail.retried') }),
      notifyRetryFailed: (_, { error }) =>
        toastFailure(error, { title: say('toast.error'), message: say('users.failed') }),
    },
  });
};
