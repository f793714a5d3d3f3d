import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  OWNER_ROLE,
  PERMISSIONS,
  newUserRefusal,
  roleChangeRefusal,
  userChangeRefusal,
  type Actor,
  type Permission,
  type RoleRow,
  type UserChangeKind,
  type UserRow,
} from '../../../../contract/auth';
import { Modal } from '../../../components/modal';
import { ConflictPrompt } from '../../../components/conflict-prompt';
import type { RoleConflict, RoleFields, UserChange } from '../../../machines/admin-users.machine';
import { useAdminSession } from '../shared/admin-context';
import { usersLive } from './users.live';
import { leastPrivilegedRole } from './role-default';
import { formatWhen } from '../shared/pager';
import s from '../shared/screen.module.css';

/** Users & Roles (owners, users.manage): accounts, their roles, and custom roles built from permissions. */
export function UsersScreen() {
  const { t, i18n } = useTranslation('admin');
  const { user: me } = useAdminSession();
  const [machine] = useState(() => usersLive(i18n));
  const [state, send] = useMachine(machine);
  const { users, roles, pending, oneTime, changes, roleConflict } = state.context;
  // when the list was first shown: an invitation past it reads as expired
  const [shownAt] = useState(() => Date.now());
  const busy = !state.matches('ready');
  const run = (change: UserChange) => send({ type: 'change.run', change });
  // The server's rules decide; the screen only hides what they would refuse.
  const permissionsOf = (roleName: string) => roles.find((r) => r.name === roleName)?.permissions ?? [];
  const may = (u: UserRow, kind: UserChangeKind, newRole?: RoleRow) =>
    userChangeRefusal(me, { ...u, permissions: permissionsOf(u.role) }, kind, newRole) === null;

  if (state.matches('failed') && users.length === 0) {
    return (
      <div role="alert">
        <p>{t('users.loadFailed')}</p>
        <button type="button" className={s.secondary} onClick={() => send({ type: 'list.retry' })}>
          {t('actions.retry')}
        </button>
      </div>
    );
  }

  return (
    <div className={s.screen}>
      <section aria-labelledby="users-title" className={s.panel}>
        <h2 id="users-title">{t('users.title')}</h2>
        <p className={s.help}>{t('users.help')}</p>
        {state.matches('loading') && users.length === 0 ? (
          <p role="status">{t('loading')}</p>
        ) : (
          <div className={s.tableWrap} tabIndex={0} role="region" aria-label={t('users.tableLabel')}>
            <table className={`${s.table} ${s.cards}`}>
              <thead>
                <tr>
                  <th scope="col">{t('users.email')}</th>
                  <th scope="col">{t('users.role')}</th>
                  <th scope="col">{t('users.status')}</th>
                  <th scope="col">{t('users.lastLogin')}</th>
                  <th scope="col">{t('users.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {users.map((u) => (
                  <tr key={u.user_id}>
                    <th scope="row" className={s.email}>
                      {u.email}
                      {u.user_id === me.user_id && <span className={s.you}> {t('users.you')}</span>}
                    </th>
                    <td data-label={t('users.role')}>
                      {may(u, 'role') ? (
                        <select
                          aria-label={t('users.roleOf', { email: u.email })}
                          value={u.role}
                          disabled={busy}
                          onChange={(e) =>
                            run({
                              kind: 'updateUser',
                              id: u.user_id,
                              email: u.email,
                              role: e.target.value,
                              version: u.version ?? 1,
                            })
                          }
                        >
                          {roles
                            .filter((r) => r.name === u.role || may(u, 'role', r))
                            .map((r) => (
                              <option key={r.role_id} value={r.name}>
                                {r.name}
                              </option>
                            ))}
                        </select>
                      ) : (
                        u.role
                      )}
                    </td>
                    <td data-label={t('users.status')}>
                      {/* one grid cell on a phone's card: both badges side by side */}
                      <span className={s.badges}>
                        <span className={u.disabled ? s.badgeOff : u.invited_until ? s.badgeNone : s.badgeOn}>
                          {t(
                            u.disabled
                              ? 'users.disabled'
                              : u.invited_until
                                ? Date.parse(u.invited_until) > shownAt
                                  ? 'users.invitedStatus'
                                  : 'users.invitationExpired'
                                : u.must_change_password
                                  ? 'users.mustChange'
                                  : 'users.active',
                          )}
                        </span>{' '}
                        <span className={u.second_factor ? s.badgeOn : s.badgeNone}>
                          {t(u.second_factor ? 'users.factorOn' : 'users.factorOff')}
                        </span>
                      </span>
                    </td>
                    <td data-label={t('users.lastLogin')}>
                      {u.last_login_at ? formatWhen(u.last_login_at, i18n.language) : t('users.never')}
                    </td>
                    <td className={s.rowActions} data-label={t('users.actions')}>
                      {!may(u, 'disable') && !may(u, 'reset') && !may(u, 'delete') ? (
                        <span className={s.none}>
                          <span aria-hidden="true">—</span>
                          <span className={s.sr}>{t('users.noActions')}</span>
                        </span>
                      ) : (
                        <div>
                          {may(u, 'disable') && (
                            <button
                              type="button"
                              className={s.small}
                              disabled={busy}
                              onClick={() =>
                                run({
                                  kind: 'updateUser',
                                  id: u.user_id,
                                  email: u.email,
                                  disabled: !u.disabled,
                                  version: u.version ?? 1,
                                })
                              }
                            >
                              {t(u.disabled ? 'users.enable' : 'users.disable')}
                              <span className={s.sr}> {u.email}</span>
                            </button>
                          )}
                          {may(u, 'reset') && (
                            <button
                              type="button"
                              className={s.small}
                              disabled={busy}
                              onClick={() => run({ kind: 'resetPassword', id: u.user_id, email: u.email })}
                            >
                              {t('users.reset')}
                              <span className={s.sr}> {u.email}</span>
                            </button>
                          )}
                          {may(u, 'reset') && me.role === OWNER_ROLE && (
                            <button
                              type="button"
                              className={s.small}
                              disabled={busy}
                              onClick={() => run({ kind: 'clearFactors', id: u.user_id, email: u.email })}
                            >
                              {t('users.clearFactors')}
                              <span className={s.sr}> {u.email}</span>
                            </button>
                          )}
                          {may(u, 'delete') && (
                            <button
                              type="button"
                              className={`${s.small} ${s.smallDanger}`}
                              disabled={busy}
                              onClick={() => run({ kind: 'deleteUser', id: u.user_id, email: u.email })}
                            >
                              {t('actions.delete')}
                              <span className={s.sr}> {u.email}</span>
                            </button>
                          )}
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <NewUserForm
          key={changes}
          roles={roles.filter((r) => newUserRefusal(me, r) === null)}
          busy={busy}
          onCreate={(email, role) => run({ kind: 'createUser', email, role })}
        />
      </section>

      <section aria-labelledby="roles-title" className={s.panel}>
        <h2 id="roles-title">{t('roles.title')}</h2>
        <p className={s.help}>{t('roles.help')}</p>
        <ul className={s.roles}>
          {roles.map((r) => (
            <RoleEditor
              key={`${r.role_id}-${changes}`}
              role={r}
              me={me}
              busy={busy}
              // based on the role as the editor opened it: a reload meanwhile never hides a change
              onSave={(name, permissions, opened) =>
                run({ kind: 'updateRole', id: r.role_id, name, permissions, ...opened })
              }
              onDelete={() => run({ kind: 'deleteRole', id: r.role_id, name: r.name })}
              onFactorRule={(requires) =>
                run({
                  kind: 'roleFactorRule',
                  id: r.role_id,
                  name: r.name,
                  permissions: r.permissions,
                  requires,
                  version: r.version ?? 1,
                })
              }
              conflict={roleConflict?.roleId === r.role_id ? roleConflict : null}
              onKeepMine={() => send({ type: 'conflict.keepMine' })}
              onTakeTheirs={() => send({ type: 'conflict.takeTheirs' })}
            />
          ))}
          <RoleEditor
            key={`new-${changes}`}
            me={me}
            busy={busy}
            onSave={(name, permissions) => run({ kind: 'createRole', name, permissions })}
          />
        </ul>
      </section>

      <Modal
        open={
          state.matches('confirming') ||
          (state.matches('saving') && pending !== null && pending.kind.startsWith('delete'))
        }
        title={t('confirm.title')}
        onClose={() => send({ type: 'change.cancel' })}
      >
        <p>
          {pending &&
            t(`confirm.${pending.kind}`, {
              email: 'email' in pending ? pending.email : '',
              name: 'name' in pending ? pending.name : '',
            })}
        </p>
        <div className={s.actions}>
          <button
            type="button"
            className={s.secondary}
            onClick={() => send({ type: 'change.cancel' })}
            disabled={!state.matches('confirming')}
          >
            {t('actions.cancel')}
          </button>
          <button
            type="button"
            className={s.danger}
            onClick={() => send({ type: 'change.confirm' })}
            disabled={!state.matches('confirming')}
          >
            {t('confirm.yes')}
          </button>
        </div>
      </Modal>

      <Modal
        open={oneTime !== null}
        title={t('oneTime.title')}
        onClose={() => send({ type: 'oneTime.dismiss' })}
        closeOnBackdrop={false}
      >
        <p>{t('oneTime.text', { email: oneTime?.email ?? '' })}</p>
        <p className={s.secret}>
          <code data-testid="one-time-password">{oneTime?.password}</code>
        </p>
        <div className={s.actions}>
          <button type="button" className={s.primary} onClick={() => send({ type: 'oneTime.dismiss' })}>
            {t('oneTime.done')}
          </button>
        </div>
      </Modal>
    </div>
  );
}

function NewUserForm({
  roles,
  busy,
  onCreate,
}: {
  roles: RoleRow[];
  busy: boolean;
  onCreate(email: string, role: string): void;
}) {
  const { t } = useTranslation('admin');
  const [email, setEmail] = useState('');
  // nothing chosen yet (or the roles changed): the role that may do least
  const [picked, setRole] = useState<string | null>(null);
  const role = picked !== null && roles.some((r) => r.name === picked) ? picked : leastPrivilegedRole(roles);
  const may = roles.find((r) => r.name === role)?.permissions ?? [];
  return (
    <form
      className={s.inline}
      onSubmit={(e) => {
        e.preventDefault();
        if (email.trim()) onCreate(email.trim(), role);
      }}
    >
      <h3>{t('users.add')}</h3>
      <div className={s.inlineFields}>
        <label htmlFor="new-user-email">
          {t('users.email')}
          <input
            id="new-user-email"
            type="email"
            value={email}
            required
            autoComplete="off"
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label htmlFor="new-user-role">
          {t('users.role')}
          <select
            id="new-user-role"
            value={role}
            aria-describedby="new-user-role-may"
            onChange={(e) => setRole(e.target.value)}
          >
            {roles.map((r) => (
              <option key={r.role_id} value={r.name}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <p id="new-user-role-may" className={s.roleMay} aria-live="polite">
          {may.length > 0
            ? t('users.roleMay', {
                list: may.map((p) => t(`permissions.${p.replace('.', '_')}`)).join(', '),
              })
            : t('users.roleMayNothing')}
        </p>
        <button type="submit" className={s.primary} disabled={busy}>
          {t('users.create')}
        </button>
      </div>
      <p className={s.help}>{t('users.createHelp')}</p>
    </form>
  );
}

function RoleEditor({
  role,
  me,
  busy,
  onSave,
  onDelete,
  conflict = null,
  onKeepMine,
  onTakeTheirs,
  onFactorRule,
}: {
  role?: RoleRow;
  me: Actor;
  busy: boolean;
  /** An owner turns the role's second-factor requirement on or off (saved at once). */
  onFactorRule?(requires: boolean): void;
  onSave(name: string, permissions: Permission[], opened: { version: number; base: RoleFields }): void;
  onDelete?(): void;
  /** Someone else's change to this role met mine on the same field. */
  conflict?: RoleConflict | null;
  onKeepMine?(): void;
  onTakeTheirs?(): void;
}) {
  const { t } = useTranslation('admin');
  const [name, setName] = useState(role?.name ?? '');
  const [permissions, setPermissions] = useState<Permission[]>(role?.permissions ?? []);
  // the role as this editor opened it: what its changes are based on
  const [opened] = useState(() => ({
    version: role?.version ?? 1,
    base: { name: role?.name ?? '', permissions: role?.permissions ?? [] },
  }));
  const readable = (field: keyof RoleFields, fields: RoleFields) =>
    field === 'name'
      ? fields.name
      : fields.permissions.map((p) => t(`permissions.${p.replace('.', '_')}`)).join(', ') || '—';
  // built-in roles never change; a role the rules would refuse is shown read-only
  const fixed = (role?.built_in ?? false) || (role !== undefined && roleChangeRefusal(me, role) !== null);
  const idBase = role ? `role-${role.role_id}` : 'role-new';
  return (
    <li className={s.role}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSave(name.trim(), permissions, opened);
        }}
      >
        {conflict && (
          <ConflictPrompt
            changedBy={conflict.conflict.changedBy}
            changedAt={conflict.conflict.changedAt}
            fields={conflict.conflict.fields.map((field) => ({
              label: t(field === 'name' ? 'roles.name' : 'roles.permissions'),
              theirs: readable(field, conflict.conflict.theirs),
              yours: readable(field, conflict.mine),
            }))}
            canKeepBoth={false}
            onKeepMine={() => onKeepMine?.()}
            onTakeTheirs={() => onTakeTheirs?.()}
            onKeepBoth={() => {}}
          />
        )}
        {/* while theirs is shown beside mine, the choice comes first: nothing typed meanwhile is lost */}
        <fieldset disabled={fixed || !!conflict}>
          <legend>
            {role ? (
              <>
                {role.name} <span className={s.count}>{t('roles.users', { count: role.user_count })}</span>
                {fixed && (
                  <span className={s.builtIn}>{t(role.built_in ? 'roles.builtIn' : 'roles.readOnly')}</span>
                )}
              </>
            ) : (
              t('roles.new')
            )}
          </legend>
          {!fixed && (
            <label className={s.roleName} htmlFor={`${idBase}-name`}>
              {t('roles.name')}
              <input
                id={`${idBase}-name`}
                value={name}
                onChange={(e) => setName(e.target.value)}
                required
                minLength={2}
                maxLength={60}
              />
            </label>
          )}
          <div className={s.perms}>
            {PERMISSIONS.map((p) => (
              <label key={p} className={s.perm}>
                <input
                  type="checkbox"
                  disabled={!me.permissions.includes(p)}
                  checked={permissions.includes(p)}
                  onChange={(e) =>
                    setPermissions((list) => (e.target.checked ? [...list, p] : list.filter((x) => x !== p)))
                  }
                />
                {t(`permissions.${p.replace('.', '_')}`)}
              </label>
            ))}
          </div>
          {!fixed && (
            <div className={s.actions}>
              {role && onDelete && (
                <button
                  type="button"
                  className={`${s.small} ${s.smallDanger}`}
                  disabled={busy}
                  onClick={onDelete}
                >
                  {t('roles.delete')}
                </button>
              )}
              <button type="submit" className={s.primary} disabled={busy}>
                {t(role ? 'roles.save' : 'roles.create')}
              </button>
            </div>
          )}
        </fieldset>
      </form>
      {role && (
        <label className={s.factorRule}>
          <input
            type="checkbox"
            checked={role.requires_second_factor ?? false}
            // whether a role requires a second factor is an owner's decision (docs/decisions/024)
            disabled={busy || me.role !== OWNER_ROLE || !onFactorRule}
            onChange={(e) => onFactorRule?.(e.target.checked)}
          />
          {t('roles.requiresFactor')}
        </label>
      )}
    </li>
  );
}
