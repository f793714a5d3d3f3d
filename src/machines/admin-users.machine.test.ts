import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { RoleRow, UserRow } from '../../contract/auth';
import { VersionConflict } from '../../contract/versions';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  flush,
  everyTransition,
} from './testing/test-model';
import {
  adminUsersMachine,
  type AdminUsersEvent,
  type ChangeResult,
  type UserChange,
} from './admin-users.machine';

const USER: UserRow = {
  user_id: 2,
  email: 'asha@example.com',
  role_id: 3,
  role: 'recruiter',
  disabled: false,
  must_change_password: false,
  created_at: '2026-01-01T00:00:00.000Z',
  last_login_at: null,
};
const ROLE: RoleRow = {
  role_id: 3,
  name: 'recruiter',
  permissions: ['jobs.manage'],
  built_in: true,
  user_count: 1,
};

function start(apply: (c: UserChange) => Promise<unknown>) {
  const spies = { changed: vi.fn(), failed: vi.fn(), load: vi.fn() };
  const actor = createActor(
    adminUsersMachine.provide({
      actors: {
        loadAll: fromPromise(async () => {
          spies.load();
          return { users: [USER], roles: [ROLE] };
        }),
        applyChange: fromPromise(({ input }) => apply(input) as never),
      },
      actions: {
        notifyChanged: (_, p) => spies.changed(p.message),
        notifyFailed: (_, p) => spies.failed(p.error),
      },
    }),
  ).start();
  return { actor, spies };
}

describe('users and roles screen', () => {
  it('creates a user and keeps the one-time password until dismissed, then reloads', async () => {
    const apply = vi.fn(async () => ({
      message: 'User created',
      one_time_password: 'abcDEF234ghjKMN567pq',
      email: 'new@example.com',
    }));
    const { actor, spies } = start(apply);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({
      type: 'change.run',
      change: { kind: 'createUser', email: 'new@example.com', role: 'editor' },
    });
    await waitFor(actor, (s) => s.matches('ready') && spies.load.mock.calls.length === 2);
    expect(actor.getSnapshot().context.oneTime).toEqual({
      email: 'new@example.com',
      password: 'abcDEF234ghjKMN567pq',
    });
    expect(spies.changed).toHaveBeenCalledWith('User created');
    actor.send({ type: 'oneTime.dismiss' });
    expect(actor.getSnapshot().context.oneTime).toBeNull();
  });

  it('asks before deleting; cancel changes nothing', async () => {
    const apply = vi.fn(async () => ({ message: 'User deleted' }));
    const { actor } = start(apply);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'change.run', change: { kind: 'deleteUser', id: 2, email: USER.email } });
    expect(actor.getSnapshot().matches('confirming')).toBe(true);
    actor.send({ type: 'change.cancel' });
    expect(apply).not.toHaveBeenCalled();
    actor.send({ type: 'change.run', change: { kind: 'deleteUser', id: 2, email: USER.email } });
    actor.send({ type: 'change.confirm' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(apply).toHaveBeenCalledWith({ kind: 'deleteUser', id: 2, email: USER.email });
  });

  it('reports a refused change and stays on the lists', async () => {
    const { actor, spies } = start(async () => {
      throw Object.assign(new Error('At least one active user must be able to manage users.'), {
        status: 409,
      });
    });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({
      type: 'change.run',
      change: { kind: 'updateUser', id: 2, email: USER.email, disabled: true, version: 1 },
    });
    await waitFor(actor, (s) => s.matches('ready') && spies.failed.mock.calls.length === 1);
    expect(actor.getSnapshot().context.users).toEqual([USER]);
  });

  it('a change someone else made first: the lists load again to show theirs, and who made it', async () => {
    let loads = 0;
    const overtaken = vi.fn();
    const actor = createActor(
      adminUsersMachine.provide({
        actors: {
          loadAll: fromPromise(async () => {
            loads++;
            return { users: [USER], roles: [] as RoleRow[] };
          }),
          applyChange: fromPromise<ChangeResult, UserChange>(async () => {
            throw new VersionConflict({
              current: { ...USER, version: 3 },
              changedBy: 'asha@example.com',
              changedAt: null,
            });
          }),
        },
        actions: { notifyOvertaken: (_, { changedBy }) => overtaken(changedBy) },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({
      type: 'change.run',
      change: { kind: 'updateUser', id: 2, email: USER.email, role: 'owner', version: 1 },
    });
    await waitFor(actor, (s) => s.matches('ready') && loads === 2);
    expect(overtaken).toHaveBeenCalledWith('asha@example.com');
    expect(actor.getSnapshot().context.pending).toBeNull();
  });
});

describe("a role's editor meets someone else's change", () => {
  const EDITORS: RoleRow = {
    role_id: 9,
    name: 'Copy desk',
    permissions: ['blog.manage'],
    built_in: false,
    user_count: 2,
    version: 1,
  };
  const theirs = (over: Partial<RoleRow>) =>
    new VersionConflict<RoleRow>({
      current: { ...EDITORS, ...over, version: 2 },
      changedBy: 'sam@example.com',
      changedAt: '2026-11-27T10:42:00.000Z',
    });
  const mine = (over: Partial<{ name: string; permissions: RoleRow['permissions'] }>): UserChange => ({
    kind: 'updateRole',
    id: 9,
    name: EDITORS.name,
    permissions: EDITORS.permissions,
    ...over,
    version: 1,
    base: { name: EDITORS.name, permissions: EDITORS.permissions },
  });

  function start(apply: (change: UserChange) => Promise<unknown>) {
    const merged = vi.fn();
    const actor = createActor(
      adminUsersMachine.provide({
        actors: {
          loadAll: fromPromise(async () => ({ users: [USER], roles: [EDITORS] })),
          applyChange: fromPromise(({ input }) => apply(input) as Promise<ChangeResult>),
        },
        actions: { notifyMerged: (_, { changedBy }) => merged(changedBy) },
      }),
    ).start();
    return { actor, merged };
  }

  it('they changed the permissions, I the name: both are saved together at once, on their version', async () => {
    const apply = vi
      .fn()
      .mockRejectedValueOnce(theirs({ permissions: ['blog.manage', 'audit.read'] }))
      .mockResolvedValueOnce({ message: 'Role saved' });
    const { actor, merged } = start(apply);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'change.run', change: mine({ name: 'Copy and web desk' }) });
    await waitFor(actor, (s) => s.matches('ready') && apply.mock.calls.length === 2);
    expect(apply.mock.calls[1][0]).toMatchObject({
      name: 'Copy and web desk',
      permissions: ['blog.manage', 'audit.read'],
      version: 2,
    });
    expect(merged).toHaveBeenCalledWith('sam@example.com');
  });

  it('both changed the permissions: theirs beside mine in that editor, then keep mine saves over theirs', async () => {
    const apply = vi
      .fn()
      .mockRejectedValueOnce(theirs({ permissions: ['audit.read'] }))
      .mockResolvedValueOnce({ message: 'Role saved' });
    const { actor } = start(apply);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'change.run', change: mine({ permissions: ['blog.manage', 'jobs.manage'] }) });
    await waitFor(actor, (s) => s.matches('roleConflict'));
    expect(actor.getSnapshot().context.roleConflict).toMatchObject({
      roleId: 9,
      mine: { permissions: ['blog.manage', 'jobs.manage'] },
      conflict: {
        fields: ['permissions'],
        theirs: { permissions: ['audit.read'] },
        changedBy: 'sam@example.com',
      },
    });
    actor.send({ type: 'conflict.keepMine' });
    await waitFor(actor, (s) => s.matches('ready') && apply.mock.calls.length === 2);
    expect(apply.mock.calls[1][0]).toMatchObject({ permissions: ['blog.manage', 'jobs.manage'], version: 2 });
    expect(actor.getSnapshot().context.roleConflict).toBeNull();
  });

  it('keep mine never undoes their change to a field only they changed', async () => {
    const apply = vi
      .fn()
      .mockRejectedValueOnce(theirs({ name: 'Web desk', permissions: ['audit.read'] }))
      .mockResolvedValueOnce({ message: 'Role saved' });
    const { actor } = start(apply);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'change.run', change: mine({ permissions: ['jobs.manage'] }) });
    await waitFor(actor, (s) => s.matches('roleConflict'));
    actor.send({ type: 'conflict.keepMine' });
    await waitFor(actor, (s) => s.matches('ready') && apply.mock.calls.length === 2);
    expect(apply.mock.calls[1][0]).toMatchObject({
      name: 'Web desk',
      permissions: ['jobs.manage'],
      version: 2,
    });
  });

  it('take theirs keeps their permissions and still saves my new name', async () => {
    const apply = vi
      .fn()
      .mockRejectedValueOnce(theirs({ permissions: ['audit.read'] }))
      .mockResolvedValueOnce({ message: 'Role saved' });
    const { actor } = start(apply);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'change.run', change: mine({ name: 'Print desk', permissions: ['jobs.manage'] }) });
    await waitFor(actor, (s) => s.matches('roleConflict'));
    actor.send({ type: 'conflict.takeTheirs' });
    await waitFor(actor, (s) => s.matches('ready') && apply.mock.calls.length === 2);
    expect(apply.mock.calls[1][0]).toMatchObject({
      name: 'Print desk',
      permissions: ['audit.read'],
      version: 2,
    });
  });

  it('take theirs saves nothing and starts the editors again from the role as it is now', async () => {
    const apply = vi.fn().mockRejectedValueOnce(theirs({ name: 'Web desk' }));
    const { actor } = start(apply);
    await waitFor(actor, (s) => s.matches('ready'));
    const before = actor.getSnapshot().context.changes;
    actor.send({ type: 'change.run', change: mine({ name: 'Print desk' }) });
    await waitFor(actor, (s) => s.matches('roleConflict'));
    actor.send({ type: 'conflict.takeTheirs' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(apply).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context).toMatchObject({
      roleConflict: null,
      pending: null,
      changes: before + 1,
    });
  });
});

describe('users and roles paths', () => {
  const events = [
    { type: 'list.retry' },
    { type: 'change.run', change: { kind: 'createRole', name: 'Auditor', permissions: ['audit.read'] } },
    { type: 'change.run', change: { kind: 'deleteRole', id: 9, name: 'Auditor' } },
    { type: 'change.confirm' },
    { type: 'change.cancel' },
    { type: 'oneTime.dismiss' },
    { type: doneEvent('loadAll'), output: { users: [USER], roles: [ROLE] } },
    { type: errorEvent('loadAll'), error: new Error('offline') },
    { type: doneEvent('applyChange'), output: { message: 'Role created' } },
    { type: errorEvent('applyChange'), error: new Error('no') },
  ];
  // `changes` counts up for ever; states differ by value, pending change and number of users only.
  const model = createPathModel(adminUsersMachine, {
    events: events as never,
    serializeState: (state: { value: unknown; context: unknown }) =>
      JSON.stringify({
        value: state.value,
        pending: (state.context as { pending: UserChange | null }).pending?.kind ?? null,
        users: (state.context as { users: unknown[] }).users.length,
      }),
  } as never);
  const walk = everyTransition(model, 'admin-users.machine', events);
  const paths = walk.paths;

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  it('reaches every state', () => {
    const reached = new Set(
      paths.flatMap((p) => [...p.steps.map((s) => s.state.value as string), p.state.value as string]),
    );
    expect([...reached].sort()).toEqual(['confirming', 'failed', 'loading', 'ready', 'saving']);
  });

  for (const path of paths) {
    it(`a change is pending exactly while confirming or saving: ${path.steps.map((s) => s.event.type).join(' → ')}`, async () => {
      const control = controlledActors(['loadAll', 'applyChange']);
      const actor = createActor(adminUsersMachine.provide({ actors: control.actors as never })).start();
      const settle =
        (id: 'loadAll' | 'applyChange', ok: boolean) =>
        async ({ event }: { event: unknown }) => {
          const e = event as { output?: unknown; error?: unknown };
          if (ok) control.settle(id, e.output);
          else control.fail(id, e.error);
          await flush();
        };
      const send = ({ event }: { event: unknown }) => actor.send(event as AdminUsersEvent);
      const pending = () => actor.getSnapshot().context.pending;
      await path.test({
        events: {
          'list.retry': send,
          'change.run': send,
          'change.confirm': send,
          'change.cancel': send,
          'oneTime.dismiss': send,
          [doneEvent('loadAll')]: settle('loadAll', true),
          [errorEvent('loadAll')]: settle('loadAll', false),
          [doneEvent('applyChange')]: settle('applyChange', true),
          [errorEvent('applyChange')]: settle('applyChange', false),
        },
        states: {
          loading: () => expect(pending()).toBeNull(),
          failed: () => expect(pending()).toBeNull(),
          ready: () => expect(pending()).toBeNull(),
          confirming: () => expect(pending()?.kind).toBe('deleteRole'),
          saving: () => expect(pending()).not.toBeNull(),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    });
  }
});
