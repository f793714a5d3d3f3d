import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import { fetchNoticePrefs, saveNoticePrefs } from '../../../api/auth';
import { showToast } from '../../../components/toasts';
import { noticePrefsMachine } from '../../../machines/notice-prefs.machine';
import { toastFailure, toastTheirs } from '../shared/admin-toasts';

/**
 * Email notices with their live effects: the signed-in user's choices, saved with the back office's
 * language of that moment (their notices are written in it), and the toasts.
 */
export const noticePrefsLive = (i18n: I18n) => {
  const say = (key: string) => i18n.t(key, { ns: 'admin' });
  return noticePrefsMachine.provide({
    actors: {
      loadPrefs: fromPromise(() => fetchNoticePrefs()),
      savePrefs: fromPromise(({ input: { version, ...choices } }) =>
        saveNoticePrefs({ ...choices, lang: i18n.language }, version),
      ),
    },
    actions: {
      notifySaved: () => showToast('success', { title: say('toast.success'), message: say('notices.saved') }),
      notifyFailed: (_, { error }) =>
        toastFailure(error, { title: say('toast.error'), message: say('users.failed') }),
      notifyOvertaken: (_, { changedBy }) => toastTheirs(i18n, changedBy, 'overtaken'),
    },
  });
};
