import { assign, fromPromise, setup } from 'xstate';
import type { Permission, RoleRow, UserRow } from '../../contract/auth';
import { conflictIn, meetTheirs, type EditConflict, type ReadField } from './record-editor.machine';

/**
 * Users & Roles: loads users and roles; runs one change at a time (create, change role,
 * disable, reset password, delete; role create/edit/delete), deletions after a confirmation; a
 * change reloads both lists. A one-time password answered by the server is kept until the owner
 * dismisses it (it is shown once, never stored elsewhere).
 *
 * A change of a user's access or of a role is based on the version the screen shows
 * (docs/decisions/022): when someone changed a user meanwhile, the lists load again to show theirs
 * and `notifyOvertaken` says who. A role's editor is an editor like the job form: when only they
 * changed the other field (the name, or the permissions), both are saved together at once
 * (`notifyMerged`); when both changed the same field, `roleConflict` shows theirs beside mine in
 * that role's editor and waits: keep mine (saved over theirs, on their version) or take theirs
 * (theirs in those fields; mine in a field only I changed is still saved).
 *
 * Effects the screen provides: `loadAll`, `applyChange`, `notifyChanged`, `notifyFailed`,
 * `notifyOvertaken`, `notifyMerged`.
 */

/** What a role's editor holds. */
export interface RoleFields {
  name: string;
  permissions: Permission[];
}
export const ROLE_FIELDS = ['name', 'permissions'] as const satisfies readonly (keyof RoleFields)[];
/** How a person reads a role: its name trimmed, its permissions as a set. */
export const readRoleField: ReadField<RoleFields> = (field, value) =>
  field === 'name' ? String(value).trim() : [...(value as Permission[])].sort().join(',');
const roleFieldsOf = (role: RoleRow): RoleFields => ({ name: role.name, permissions: role.permissions });

/** Their role beside what the editor of role `roleId` holds (`mine`), while `roleConflict`. */
export interface RoleConflict {
  roleId: number;
  mine: RoleFields;
  conflict: EditConflict<RoleFields>;
}
export type UserChange =
  | { kind: 'createUser'; email: string; role: string; password?: string }
  | { kind: 'updateUser'; id: number; email: string; role?: string; disabled?: boolean; version: number }
  | { kind: 'resetPassword'; id: number; email: string }
  | { kind: 'deleteUser'; id: number; email: string }
  | { kind: 'createRole'; name: string; permissions: Permission[] }
  | {
      kind: 'updateRole';
      id: number;
      name: string;
      permissions: Permission[];
      /** The version the editor opened, and the role as it was then. */
      version: number;
      base: RoleFields;
    }
  | { kind: 'deleteRole'; id: number; name: string }
  /** An owner decides whether a role's members sign in with a second factor (the role otherwise as it is). */
  | {
      kind: 'roleFactorRule';
      id: number;
      name: string;
      permissions: Permission[];
      requires: boolean;
      version: number;
    }
  /** A lost phone: an owner clears a colleague's second factors. */
  | { kind: 'clearFactors'; id: number; email: string };

export interface ChangeResult {
  message: string;
  one_time_password?: string;
  email?: string;
}

export interface AdminUsersContext {
  users: UserRow[];
  roles: RoleRow[];
  pending: UserChange | null;
  oneTime: { email: string; password: string } | null;
  /** Bumped after each successful change, so forms can reset themselves. */
  changes: number;
  roleConflict: RoleConflict | null;
}

export type AdminUsersEvent =
  | { type: 'list.retry' }
  | { type: 'change.run'; change: UserChange }
  | { type: 'change.confirm' }
  | { type: 'change.cancel' }
  | { type: 'oneTime.dismiss' }
  /** In a role's editor, after a conflict: save mine over theirs, or take theirs. */
  | { type: 'conflict.keepMine' }
  | { type: 'conflict.takeTheirs' };

type RoleChange = Extract<UserChange, { kind: 'updateRole' }>;
/** The pending role change and the role as someone else left it, when a save met theirs. */
function roleMet(pending: UserChange | null, error: unknown) {
  const met = conflictIn<RoleRow>(error);
  if (pending?.kind !== 'updateRole' || !met) return null;
  const theirs = roleFieldsOf(met.current);
  const mine = { name: pending.name, permissions: pending.permissions };
  return {
    pending,
    met,
    theirs,
    mine,
    ...meetTheirs(ROLE_FIELDS, readRoleField, mine, pending.base, theirs),
  };
}

const needsConfirmation = (change: UserChange) =>
  change.kind === 'deleteUser' ||
  change.kind === 'deleteRole' ||
  change.kind === 'resetPassword' ||
  change.kind === 'clearFactors';

export const adminUsersMachine = setup({
  types: { context: {} as AdminUsersContext, events: {} as AdminUsersEvent },
  actors: {
    loadAll: fromPromise<{ users: UserRow[]; roles: RoleRow[] }>(async () => {
      throw new Error('loadAll is provided by the app');
    }),
    applyChange: fromPromise<ChangeResult, UserChange>(async () => {
      throw new Error('applyChange is provided by the app');
    }),
  },
  actions: {
    store: assign((_, p: { users: UserRow[]; roles: RoleRow[] }) => ({ users: p.users, roles: p.roles })),
    remember: assign({ pending: (_, p: { change: UserChange }) => p.change }),
    forget: assign({ pending: null }),
    keepOneTime: assign({
      oneTime: ({ context }, p: { result: ChangeResult }) =>
        p.result.one_time_password && p.result.email
          ? { email: p.result.email, password: p.result.one_time_password }
          : context.oneTime,
      changes: ({ context }) => context.changes + 1,
      pending: null,
    }),
    dropOneTime: assign({ oneTime: null }),
    /** Mine saved together with their change to the other field, on their version. */
    mergeRole: assign({
      pending: ({ context }, p: { error: unknown }) => {
        const m = roleMet(context.pending, p.error)!;
        return {
          ...m.pending,
          ...m.merged,
          version: m.met.current.version ?? m.pending.version,
          base: m.theirs,
        } satisfies RoleChange;
      },
    }),
    holdRoleConflict: assign({
      roleConflict: ({ context }, p: { error: unknown }) => {
        const m = roleMet(context.pending, p.error)!;
        // mine, with their change to a field only they changed: keeping mine must not undo it
        return {
          roleId: m.pending.id,
          mine: m.merged,
          conflict: {
            theirs: m.theirs,
            version: m.met.current.version ?? m.pending.version,
            changedBy: m.met.changedBy,
            changedAt: m.met.changedAt,
            fields: m.both,
          },
        };
      },
    }),
    keepMine: assign({
      pending: ({ context }) => {
        const { roleId, mine, conflict } = context.roleConflict!;
        return {
          kind: 'updateRole' as const,
          id: roleId,
          ...mine,
          version: conflict.version,
          base: conflict.theirs,
        };
      },
      roleConflict: null,
    }),
    /** Theirs in the fields both changed, mine in the others: saved on their version. */
    takeTheirs: assign({
      pending: ({ context }) => {
        const { roleId, mine, conflict } = context.roleConflict!;
        const fields = { ...mine };
        for (const f of conflict.fields) Object.assign(fields, { [f]: conflict.theirs[f] });
        return {
          kind: 'updateRole' as const,
          id: roleId,
          ...fields,
          version: conflict.version,
          base: conflict.theirs,
        };
      },
      roleConflict: null,
    }),
    /** Taking theirs left nothing of mine: nothing to save; the editors start again from the role. */
    dropRoleConflict: assign({
      roleConflict: null,
      pending: null,
      changes: ({ context }) => context.changes + 1,
    }),
    notifyChanged: (_, _p: { message: string }) => {},
    notifyFailed: (_, _p: { error: unknown }) => {},
    notifyOvertaken: (_, _p: { changedBy: string | null }) => {},
    notifyMerged: (_, _p: { changedBy: string | null }) => {},
  },
  guards: {
    needsConfirmation: (_, p: { change: UserChange }) => needsConfirmation(p.change),
    isConflict: (_, p: { error: unknown }) => conflictIn(p.error) !== null,
    /** A role change that met theirs on the other field only: saved together. */
    isMergeableRole: ({ context }, p: { error: unknown }) =>
      roleMet(context.pending, p.error)?.both.length === 0,
    isRoleConflict: ({ context }, p: { error: unknown }) => roleMet(context.pending, p.error) !== null,
    /** Mine changed a field they did not: taking theirs for the others still saves that. */
    keepsOtherChanges: ({ context }) => {
      const c = context.roleConflict;
      return (
        !!c &&
        ROLE_FIELDS.some(
          (f) =>
            !c.conflict.fields.includes(f) &&
            readRoleField(f, c.mine[f]) !== readRoleField(f, c.conflict.theirs[f]),
        )
      );
    },
  },
}).createMachine({
  id: 'adminUsers',
  initial: 'loading',
  context: { users: [], roles: [], pending: null, oneTime: null, changes: 0, roleConflict: null },
  on: { 'oneTime.dismiss': { actions: 'dropOneTime' } },
  states: {
    loading: {
      invoke: {
        id: 'loadAll',
        src: 'loadAll',
        onDone: { target: 'ready', actions: { type: 'store', params: ({ event }) => event.output } },
        onError: {
          target: 'failed',
          actions: { type: 'notifyFailed', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    failed: { on: { 'list.retry': 'loading' } },
    ready: {
      on: {
        'change.run': [
          {
            guard: { type: 'needsConfirmation', params: ({ event }) => ({ change: event.change }) },
            target: 'confirming',
            actions: { type: 'remember', params: ({ event }) => ({ change: event.change }) },
          },
          {
            target: 'saving',
            actions: { type: 'remember', params: ({ event }) => ({ change: event.change }) },
          },
        ],
      },
    },
    confirming: {
      on: {
        'change.confirm': 'saving',
        'change.cancel': { target: 'ready', actions: 'forget' },
      },
    },
    saving: {
      invoke: {
        id: 'applyChange',
        src: 'applyChange',
        input: ({ context }) => context.pending!,
        onDone: {
          target: 'loading',
          actions: [
            { type: 'keepOneTime', params: ({ event }) => ({ result: event.output }) },
            { type: 'notifyChanged', params: ({ event }) => ({ message: event.output.message }) },
          ],
        },
        onError: [
          {
            guard: { type: 'isMergeableRole', params: ({ event }) => ({ error: event.error }) },
            target: 'saving',
            reenter: true,
            actions: [
              { type: 'mergeRole', params: ({ event }) => ({ error: event.error }) },
              {
                type: 'notifyMerged',
                params: ({ event }) => ({ changedBy: conflictIn(event.error)!.changedBy }),
              },
            ],
          },
          {
            guard: { type: 'isRoleConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'roleConflict',
            actions: { type: 'holdRoleConflict', params: ({ event }) => ({ error: event.error }) },
          },
          {
            // changed by someone else meanwhile: show the lists as they are now
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'loading',
            actions: [
              'forget',
              {
                type: 'notifyOvertaken',
                params: ({ event }) => ({ changedBy: conflictIn(event.error)!.changedBy }),
              },
            ],
          },
          {
            target: 'ready',
            actions: ['forget', { type: 'notifyFailed', params: ({ event }) => ({ error: event.error }) }],
          },
        ],
      },
    },
    /**
     * '<name> changed this at 10:42 while you were editing', in that role's editor: theirs beside
     * mine for the fields both changed; what was chosen stays until the person decides.
     */
    roleConflict: {
      on: {
        'conflict.keepMine': { target: 'saving', actions: 'keepMine' },
        'conflict.takeTheirs': [
          { guard: 'keepsOtherChanges', target: 'saving', actions: 'takeTheirs' },
          { target: 'loading', actions: 'dropRoleConflict' },
        ],
      },
    },
  },
});
