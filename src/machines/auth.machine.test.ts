import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { SessionUser } from '../../contract/auth';
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
const apiError = (status: number, message: string, errors?: Record<string, string>) =>
  Object.assign(new Error(message), { status, ...(errors ? { errors } : {}) });
const STEP = { second_step: { methods: ['totp', 'recovery'], expires_at: '2026-11-27T10:05:00.000Z' } };
const WRONG_CODE = apiError(400, 'That code is not right.', { code: 'That code is not right.' });
const STEP_ENDED = apiError(401, 'The sign-in took too long. Sign in again with your password.');
const PASSKEY_CANCELLED = Object.assign(new Error('The operation either timed out or was not allowed.'), {
  name: 'NotAllowedError',
});

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

describe('the second step of sign-in', () => {
  function startWithStep(verify: () => Promise<unknown>, passkey: () => Promise<unknown> = async () => USER) {
    const left: (number | undefined)[] = [];
    const actor = createActor(
      authMachine.provide({
        actors: {
          fetchMe: fromPromise(async () => Promise.reject(apiError(401, 'Please sign in.'))) as never,
          login: fromPromise(async () => STEP) as never,
          verifyCode: fromPromise(verify) as never,
          passkey: fromPromise(passkey) as never,
          logout: fromPromise(async () => ({ message: 'Signed out' })) as never,
        },
        actions: { notifyRecoveryLeft: (_, p) => left.push(p.left) },
      }),
    ).start();
    return { actor, left };
  }

  it('a right password of an account with a factor asks for the code; a wrong code stays, a right one signs in', async () => {
    let answer: () => Promise<unknown> = async () => Promise.reject(WRONG_CODE);
    const { actor, left } = startWithStep(() => answer());
    await waitFor(actor, (s) => s.matches('signedOut'));
    actor.send({ type: 'login.submit', email: USER.email, password: 'a long passphrase' });
    await waitFor(actor, (s) => s.matches('secondStep'));
    expect(actor.getSnapshot().context.user).toBeNull();
    expect(actor.getSnapshot().context.secondStep?.methods).toEqual(['totp', 'recovery']);
    actor.send({ type: 'code.submit', code: '   ' });
    expect(actor.getSnapshot().context.error).toBe(LOGIN_ERRORS.code);
    actor.send({ type: 'code.submit', code: '000000' });
    await waitFor(actor, (s) => s.matches('secondStep') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('That code is not right.');
    answer = async () => ({ ...USER, recovery_left: 4 });
    actor.send({ type: 'code.submit', code: 'abcde-fghij' });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(actor.getSnapshot().context).toMatchObject({ user: { user_id: USER.user_id }, secondStep: null });
    expect(left).toEqual([4]);
  });

  it('a second step that took too long goes back to the password, with the reason', async () => {
    const { actor } = startWithStep(async () => Promise.reject(STEP_ENDED));
    await waitFor(actor, (s) => s.matches('signedOut'));
    actor.send({ type: 'login.submit', email: USER.email, password: 'a long passphrase' });
    await waitFor(actor, (s) => s.matches('secondStep'));
    actor.send({ type: 'code.submit', code: '123456' });
    await waitFor(actor, (s) => s.matches('signedOut') && s.context.error !== null);
    expect(actor.getSnapshot().context).toMatchObject({ error: STEP_ENDED.message, secondStep: null });
  });

  it('a passkey the person cancels says so and stays on the step; cancel goes back to the password', async () => {
    const { actor } = startWithStep(
      async () => USER,
      async () => Promise.reject(PASSKEY_CANCELLED),
    );
    await waitFor(actor, (s) => s.matches('signedOut'));
    actor.send({ type: 'login.submit', email: USER.email, password: 'a long passphrase' });
    await waitFor(actor, (s) => s.matches('secondStep'));
    actor.send({ type: 'passkey.use' });
    await waitFor(actor, (s) => s.matches('secondStep') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(LOGIN_ERRORS.passkeyCancelled);
    actor.send({ type: 'secondStep.cancel' });
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(actor.getSnapshot().context.secondStep).toBeNull();
  });

  it('a passkey alone signs in from the sign-in page', async () => {
    const { actor } = startWithStep(async () => USER);
    await waitFor(actor, (s) => s.matches('signedOut'));
    actor.send({ type: 'passkey.signIn' });
    await waitFor(actor, (s) => s.matches('signedIn'));
  });

  it('over an ended session, the dialog asks for the second step too and the same user goes on', async () => {
    const switched: boolean[] = [];
    const actor = createActor(
      authMachine.provide({
        actors: {
          fetchMe: fromPromise(async () => USER) as never,
          login: fromPromise(async () => STEP) as never,
          verifyCode: fromPromise(async () => USER) as never,
        },
        actions: { userSwitched: () => switched.push(true) },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('signedIn'));
    actor.send({ type: 'session.expired' });
    actor.send({ type: 'login.submit', email: USER.email, password: 'a long passphrase' });
    await waitFor(actor, (s) => s.matches({ signedIn: 'expiredSecondStep' }));
    expect(actor.getSnapshot().context.user?.user_id).toBe(USER.user_id);
    actor.send({ type: 'code.submit', code: '123456' });
    await waitFor(actor, (s) => s.matches({ signedIn: 'active' }));
    expect(switched).toEqual([]);
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
    // the second step
    { type: doneEvent('login'), output: STEP },
    { type: doneEvent('fetchMe'), output: STEP },
    { type: doneEvent('relogin'), output: STEP },
    { type: 'code.submit', code: '123456' },
    { type: 'code.submit', code: ' ' },
    { type: doneEvent('verifyCode'), output: USER },
    { type: errorEvent('verifyCode'), error: WRONG_CODE },
    { type: errorEvent('verifyCode'), error: STEP_ENDED },
    { type: 'passkey.use' },
    { type: doneEvent('passkeyStep'), output: USER },
    { type: errorEvent('passkeyStep'), error: PASSKEY_CANCELLED },
    { type: errorEvent('passkeyStep'), error: STEP_ENDED },
    { type: 'secondStep.cancel' },
    { type: doneEvent('cancelSecondStep'), output: {} },
    { type: errorEvent('cancelSecondStep'), error: apiError(0, 'offline') },
    { type: 'passkey.signIn' },
    { type: doneEvent('passkeySignIn'), output: USER },
    { type: errorEvent('passkeySignIn'), error: PASSKEY_CANCELLED },
    { type: doneEvent('reverifyCode'), output: USER },
    { type: errorEvent('reverifyCode'), error: WRONG_CODE },
    { type: errorEvent('reverifyCode'), error: STEP_ENDED },
    { type: doneEvent('reverifyPasskey'), output: USER },
    { type: errorEvent('reverifyPasskey'), error: PASSKEY_CANCELLED },
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
        'secondStep',
        'verifyingCode',
        'verifyingPasskey',
        'cancellingSecondStep',
        'signingInWithPasskey',
        'signedIn.expiredSecondStep',
        'signedIn.reverifying',
        'signedIn.reverifyingPasskey',
      ].sort(),
    );
  });

  for (const path of paths) {
    it(`a user is known exactly while signed in: ${path.steps.map((s) => s.event.type).join(' → ')}`, async () => {
      const control = controlledActors([
        'fetchMe',
        'login',
        'logout',
        'countWaiting',
        'verifyCode',
        'passkey',
      ]);
      const actor = createActor(authMachine.provide({ actors: control.actors as never })).start();
      const settle =
        (id: 'fetchMe' | 'login' | 'logout' | 'countWaiting' | 'verifyCode' | 'passkey', ok: boolean) =>
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
          'code.submit': send,
          'passkey.use': send,
          'passkey.signIn': send,
          'secondStep.cancel': send,
          [doneEvent('verifyCode')]: settle('verifyCode', true),
          [errorEvent('verifyCode')]: settle('verifyCode', false),
          [doneEvent('reverifyCode')]: settle('verifyCode', true),
          [errorEvent('reverifyCode')]: settle('verifyCode', false),
          [doneEvent('passkeyStep')]: settle('passkey', true),
          [errorEvent('passkeyStep')]: settle('passkey', false),
          [doneEvent('passkeySignIn')]: settle('passkey', true),
          [errorEvent('passkeySignIn')]: settle('passkey', false),
          [doneEvent('reverifyPasskey')]: settle('passkey', true),
          [errorEvent('reverifyPasskey')]: settle('passkey', false),
          [doneEvent('cancelSecondStep')]: settle('logout', true),
          [errorEvent('cancelSecondStep')]: settle('logout', false),
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
          // the password alone signs nobody in
          secondStep: () => {
            expect(actor.getSnapshot().context.user).toBeNull();
            expect(actor.getSnapshot().context.secondStep).not.toBeNull();
          },
          verifyingCode: () => expect(actor.getSnapshot().context.user).toBeNull(),
          'signedIn.expiredSecondStep': () => expect(actor.getSnapshot().context.secondStep).not.toBeNull(),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    });
  }
});
