import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import type { SessionUser } from '../../../../contract/auth';
import { changePassword } from '../../../api/auth';
import { showToast } from '../../../components/toasts';
import { passwordChangeMachine } from '../../../machines/password-change.machine';

/**
 * Changing one's own password with its live effects: the change on the server, the toast, and the
 * session told of the user as the server now sees them (no longer required to change it).
 */
export const passwordChangeLive = (i18n: I18n, userUpdated: (user: SessionUser) => void) =>
  passwordChangeMachine.provide({
    actors: { changePassword: fromPromise(({ input }) => changePassword(input)) },
    actions: {
      notifyChanged: (_, { user }) => {
        showToast('success', {
          title: i18n.t('admin:toast.success'),
          message: i18n.t('admin:password.changed'),
        });
        userUpdated(user);
      },
    },
  });
