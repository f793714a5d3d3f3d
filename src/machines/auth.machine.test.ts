import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { SessionUser } from '../api/contract/auth';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  flush,
  everyTransition,
} from './testing/test-model';
import { authMachine, LOGIN_ERRORS, type AuthEvent } from './auth.machine';

const USER: SessionUser = {
  user_id: 1,
  email: 'owner@example.com',
  role_id: 1,
  role: 'owner',
  permissions: ['jobs.manage', 'users.manage'],
  must_change_password: false,
};
const apiError = (status: number, message: string) => Object.assign(new Error(message), { status });

function start(overrides: Partial<Record<'fetchMe' | 'login' | 'logout', () => Promise<unknown>>> = {}) {
  return createActor(
    authMachine.provide({
      actors: {
        fetchMe: fromPromise(
          overrides.fetchMe ?? (async () => Promise.reject(apiError(401, 'Please sign in.'))),
        ) as never,
        login: fromPromise(overrides.login ?? (async () => USER)) as never,
        logout: fromPromise(overrides.logout ?? (async () => ({ message: 'Signed out' }))),
      },
    }),
  ).start();
}

describe('admin sign-in', () => {
  it('goes to signed out when the session check answers 401', async () => {
    const actor = start();
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(actor.getSnapshot().context.user).toBeNull();
  });

  it('stays signed in when the session is valid', async () => {
    const actor = start({ fetchMe: async () => USER });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(actor.getSnapshot().context.user?.email).toBe('owner@example.com');
  });

  it('offers a retry when the server cannot be reached', async () => {
    const actor = start({ fetchMe: async () => Promise.reject(apiError(0, 'Failed to fetch')) });
    await waitFor(actor, (s) => s.matches('unreachable'));
  });

  it('says which field is missing before calling the server', async () => {
    const actor = start();
    await waitFor(actor, (s) => s.matches('signedOut'));
    actor.send({ type: 'login.submit', email: ' ', password: 'x' });
    expect(actor.getSnapshot().context.error).toBe(LOGIN_ERRORS.email);
    actor.send({ type: 'login.submit', email: 'a@example.com', password: '' });
    expect(actor.getSnapshot().context.error).toBe(LOGIN_ERRORS.password);
  });

  it("shows the server's message for a refused sign-in and the connection message offline", async () => {
    let answer = apiError(401, 'Invalid email or password.');
    const actor = start({ login: async () => Promise.reject(answer) });
    await waitFor(actor, (s) => s.matches('signedOut'));
    actor.send({ type: 'login.submit', email: 'a@example.com', password: 'wrong one' });
    await waitFor(actor, (s) => s.matches('signedOut') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Invalid email or password.');
    answer = apiError(0, 'Failed to fetch');
    actor.send({ type: 'login.submit', email: 'a@example.com', password: 'wrong one' });
    await waitFor(actor, (s) => s.matches('signedOut') && s.context.error === LOGIN_ERRORS.network);
  });

  it('signs in, then out; an expired session asks to sign in again without leaving the screen', async () => {
    const actor = start();
    await waitFor(actor, (s) => s.matches('signedOut'));
    actor.send({ type: 'login.submit', email: 'owner@example.com', password: 'a long passphrase' });
    await waitFor(actor, (s) => s.matches('signedIn'));
    actor.send({ type: 'session.expired' });
    // still signed in as far as the screens go: they stay, with the dialog over them
    expect(actor.getSnapshot().matches({ signedIn: 'expired' })).toBe(true);
    expect(actor.getSnapshot().context.user).not.toBeNull();
    actor.send({ type: 'login.submit', email: 'owner@example.com', password: '' });
    expect(actor.getSnapshot().context.error).toBe(LOGIN_ERRORS.password);
    actor.send({ type: 'login.submit', email: 'owner@example.com', password: 'a long passphrase' });
    await waitFor(actor, (s) => s.matches({ signedIn: 'active' }));
    actor.send({ type: 'logout' });
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(actor.getSnapshot().context.user).toBeNull();
  });
});

describe('signing out', () => {
  it('forgets the user on this device, also when the server cannot be told, and starts the next sign-in afresh', async () => {
    for (const logout of [
      async () => ({ message: 'Signed out' }),
      async () => Promise.reject(apiError(0, 'offline')),
    ]) {
      const forgotten: number[] = [];
      const actor = createActor(
        authMachine.provide({
          actors: {
            fetchMe: fromPromise(async () => USER) as never,
            login: fromPromise(async () => USER) as never,
            logout: fromPromise(logout) as never,
          },
          actions: { forgetOnDevice: (_, params) => forgotten.push(params.userId) },
        }),
      ).start();
      await waitFor(actor, (s) => s.matches('signedIn'));
      expect(actor.getSnapshot().context.signedOutHere).toBe(false);
      actor.send({ type: 'logout' });
      await waitFor(actor, (s) => s.matches('signedOut'));
      expect(forgotten).toEqual([USER.user_id]);
      expect(actor.getSnapshot().context.signedOutHere).toBe(true);
      actor.send({ type: 'login.submit', email: USER.email, password: 'a long passphrase' });
      await waitFor(actor, (s) => s.matches('signedIn'));
      expect(actor.getSnapshot().context.signedOutHere).toBe(false);
    }
  });
});

describe('admin sign-in paths', () => {
  const events = [
    { type: 'login.submit', email: 'a@example.com', password: 'secret passphrase' },
    { type: 'login.submit', email: '', password: '' },
    { type: 'logout' },
    { type: 'session.expired' },
    { type: 'check.retry' },
    { type: doneEvent('relogin'), output: USER },
    { type: doneEvent('relogin'), output: { ...USER, user_id: USER.user_id + 1 } },
    { type: errorEvent('relogin'), error: apiError(401, 'Invalid email or password.') },
    { type: 'user.updated', user: USER },
    { type: doneEvent('fetchMe'), output: USER },
    { type: errorEvent('fetchMe'), error: apiError(401, 'no') },
    { type: errorEvent('fetchMe'), error: apiError(0, 'offline') },
    { type: doneEvent('login'), output: USER },
    { type: errorEvent('login'), error: apiError(401, 'Invalid email or password.') },
    { type: doneEvent('logout'), output: {} },
    { type: errorEvent('logout'), error: apiError(0, 'offline') },
    { type: doneEvent('countWaiting'), output: 0 },
    { type: doneEvent('countWaiting'), output: 2 },
    { type: errorEvent('countWaiting'), error: new Error('no IndexedDB') },
    { type: 'signout.confirm' },
    { type: 'signout.cancel' },
  ];
  const model = createPathModel(authMachine, { events: events as never });
  const walk = everyTransition(model, 'auth.machine', events);
  const paths = walk.paths;

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  it('reaches every state', () => {
    expect(
      [
        ...new Set(
          paths.flatMap((p) =>
            [...p.steps.map((s) => s.state.value), p.state.value].map((v) =>
              typeof v === 'string'
                ? v
                : Object.entries(v as Record<string, string>).map(([a, b]) => `${a}.${b}`)[0],
            ),
          ),
        ),
      ].sort(),
    ).toEqual(
      [
        'checking',
        'signedIn.active',
        'signedIn.expired',
        'signedIn.reauthenticating',
        'signedOut',
        'signingIn',
        'signingOut',
        'leaving.counting',
        'leaving.asking',
        'unreachable',
      ].sort(),
    );
  });

  for (const path of paths) {
    it(`a user is known exactly while signed in: ${path.steps.map((s) => s.event.type).join(' → ')}`, async () => {
      const control = controlledActors(['fetchMe', 'login', 'logout', 'countWaiting']);
      const actor = createActor(authMachine.provide({ actors: control.actors as never })).start();
      const settle =
        (id: 'fetchMe' | 'login' | 'logout' | 'countWaiting', ok: boolean) =>
        async ({ event }: { event: unknown }) => {
          const e = event as { output?: unknown; error?: unknown };
          if (ok) control.settle(id, e.output);
          else control.fail(id, e.error);
          await flush();
        };
      const send = ({ event }: { event: unknown }) => actor.send(event as AuthEvent);
      await path.test({
        events: {
          'login.submit': send,
          logout: send,
          'session.expired': send,
          'check.retry': send,
          'user.updated': send,
          [doneEvent('fetchMe')]: settle('fetchMe', true),
          [errorEvent('fetchMe')]: settle('fetchMe', false),
          [doneEvent('login')]: settle('login', true),
          [errorEvent('login')]: settle('login', false),
          // signing in again after an ended session uses the same login call
          [doneEvent('relogin')]: settle('login', true),
          [errorEvent('relogin')]: settle('login', false),
          [doneEvent('logout')]: settle('logout', true),
          [errorEvent('logout')]: settle('logout', false),
          [doneEvent('countWaiting')]: settle('countWaiting', true),
          [errorEvent('countWaiting')]: settle('countWaiting', false),
          'signout.confirm': send,
          'signout.cancel': send,
        },
        states: {
          signedIn: () => expect(actor.getSnapshot().context.user).not.toBeNull(),
          signedOut: () => expect(actor.getSnapshot().context.user).toBeNull(),
          checking: () => expect(actor.getSnapshot().context.user).toBeNull(),
          unreachable: () => expect(actor.getSnapshot().context.user).toBeNull(),
          signingIn: () => expect(actor.getSnapshot().context.error).toBeNull(),
          signingOut: () => expect(actor.getSnapshot().context.user).not.toBeNull(),
          // still signed in while it asks: the screens stay as they are
          leaving: () => expect(actor.getSnapshot().context.user).not.toBeNull(),
          'leaving.asking': () => expect(actor.getSnapshot().context.waiting).toBeGreaterThan(0),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    });
  }
});
