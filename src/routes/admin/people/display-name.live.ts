import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import { saveDisplayName } from '../../../api/auth';
import type { SessionUser } from '../../../../contract/auth';
import { showToast } from '../../../components/toasts';
import { displayNameMachine } from '../../../machines/display-name.machine';
import { toastFailure } from '../shared/admin-toasts';

/** "Your name on posts" with its live effects: the save, the toasts, and the session told. */
export const displayNameLive = (i18n: I18n, user: SessionUser, userUpdated: (user: SessionUser) => void) =>
  displayNameMachine.provide({
    actors: { saveName: fromPromise(({ input }) => saveDisplayName(input.name)) },
    actions: {
      notifySaved: (_, { name }) => {
        showToast('success', {
          title: i18n.t('admin:toast.success'),
          message: i18n.t('admin:profile.saved'),
        });
        userUpdated({ ...user, display_name: name });
      },
      notifyFailed: (_, { error }) =>
        toastFailure(error, { title: i18n.t('admin:toast.error'), message: i18n.t('admin:profile.failed') }),
    },
  });
