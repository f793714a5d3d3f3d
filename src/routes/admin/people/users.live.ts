import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import {
  clearUserFactors,
  createRole,
  createUser,
  deleteRole,
  deleteUser,
  listRoles,
  listUsers,
  resetUserPassword,
  updateRole,
  updateUser,
} from '../../../api/auth';
import { showToast } from '../../../components/toasts';
import { adminUsersMachine, type ChangeResult, type UserChange } from '../../../machines/admin-users.machine';
import { toastFailure, toastTheirs } from '../shared/admin-toasts';

/** Runs a change; `say` translates the result of a mailed invitation or reset link. */
async function apply(
  change: UserChange,
  lang: string,
  say: (key: string, email: string) => string,
): Promise<ChangeResult> {
  switch (change.kind) {
    case 'createUser': {
      const r = await createUser({
        email: change.email,
        role: change.role,
        lang,
        ...(change.password ? { password: change.password } : {}),
      });
      const message = r.mailed_to ? say('users.invited', r.mailed_to) : r.message;
      return { message, one_time_password: r.one_time_password, email: r.user.email };
    }
    case 'updateUser':
      return updateUser(change.id, { role: change.role, disabled: change.disabled }, change.version);
    case 'resetPassword': {
      const r = await resetUserPassword(change.id, lang);
      const message = r.mailed_to ? say('users.linkSent', r.mailed_to) : r.message;
      return { message, one_time_password: r.one_time_password, email: r.user.email };
    }
    case 'deleteUser':
      return deleteUser(change.id);
    case 'createRole':
      return createRole({ name: change.name, permissions: change.permissions });
    case 'updateRole':
      return updateRole(change.id, { name: change.name, permissions: change.permissions }, change.version);
    case 'deleteRole':
      return deleteRole(change.id);
    case 'roleFactorRule':
      return updateRole(
        change.id,
        { name: change.name, permissions: change.permissions, requires_second_factor: change.requires },
        change.version,
      );
    case 'clearFactors':
      return clearUserFactors(change.id);
  }
}

/**
 * Users & Roles with its live effects: users and roles from the server, one change at a time
 * (a mailed invitation or reset link is told in the back office's language), and the toasts.
 */
export const usersLive = (i18n: I18n) =>
  adminUsersMachine.provide({
    actors: {
      loadAll: fromPromise(async () => {
        const [users, roles] = await Promise.all([listUsers(), listRoles()]);
        return { users, roles };
      }),
      applyChange: fromPromise(({ input }) =>
        apply(input, i18n.language, (key, email) => i18n.t(key, { ns: 'admin', email })),
      ),
    },
    actions: {
      notifyChanged: (_, { message }) =>
        showToast('success', { title: i18n.t('admin:toast.success'), message }),
      notifyOvertaken: (_, { changedBy }) => toastTheirs(i18n, changedBy, 'overtaken'),
      notifyMerged: (_, { changedBy }) => toastTheirs(i18n, changedBy, 'merged'),
      notifyFailed: (_, { error }) =>
        toastFailure(error, { title: i18n.t('admin:toast.error'), message: i18n.t('admin:users.failed') }),
    },
  });
