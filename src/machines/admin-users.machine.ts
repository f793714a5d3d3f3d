import { assign, fromPromise, setup } from 'xstate';
import type { Permission, RoleRow, UserRow } from '../api/contract/auth';
import { conflictIn } from './edit-conflict';

/**
 * Users & Roles: loads users and roles; runs one change at a time (create, change role,
 * disable, reset password, delete; role create/edit/delete), deletions after a confirmation; a
 * change reloads both lists. A one-time password answered by the server is kept until the owner
 * dismisses it (it is shown once, never stored elsewhere).
 *
 * A change of a user's access or of a role is based on the version the screen shows
 * (docs/decisions/022): when someone changed it meanwhile, the lists load again to show theirs
 * and `notifyOvertaken` says who.
 *
 * Effects the screen provides: `loadAll`, `applyChange`, `notifyChanged`, `notifyFailed`,
 * `notifyOvertaken`.
 */
export type UserChange =
  | { kind: 'createUser'; email: string; role: string; password?: string }
  | { kind: 'updateUser'; id: number; email: string; role?: string; disabled?: boolean; version: number }
  | { kind: 'resetPassword'; id: number; email: string }
  | { kind: 'deleteUser'; id: number; email: string }
  | { kind: 'createRole'; name: string; permissions: Permission[] }
  | { kind: 'updateRole'; id: number; name: string; permissions: Permission[]; version: number }
  | { kind: 'deleteRole'; id: number; name: string };

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
}

export type AdminUsersEvent =
  | { type: 'list.retry' }
  | { type: 'change.run'; change: UserChange }
  | { type: 'change.confirm' }
  | { type: 'change.cancel' }
  | { type: 'oneTime.dismiss' };

const needsConfirmation = (change: UserChange) =>
  change.kind === 'deleteUser' || change.kind === 'deleteRole' || change.kind === 'resetPassword';

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
    notifyChanged: (_, _p: { message: string }) => {},
    notifyFailed: (_, _p: { error: unknown }) => {},
    notifyOvertaken: (_, _p: { changedBy: string | null }) => {},
  },
  guards: {
    needsConfirmation: (_, p: { change: UserChange }) => needsConfirmation(p.change),
    isConflict: (_, p: { error: unknown }) => conflictIn(p.error) !== null,
  },
}).createMachine({
  id: 'adminUsers',
  initial: 'loading',
  context: { users: [], roles: [], pending: null, oneTime: null, changes: 0 },
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
  },
});
