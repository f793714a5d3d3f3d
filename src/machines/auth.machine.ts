import { assign, fromPromise, setup } from 'xstate';
import type { LoginBody, SessionUser } from '../api/contract/auth';

/**
 * The back office's sign-in state: checking the session (GET /api/auth/me) after mount, then
 * signed in or signed out; signing in and out. 'session.expired' (any admin call answered 401)
 * keeps the screens and asks to sign in again over them (`signedIn.expired`); signing in as the
 * same user goes on where they were, as someone else starts the back office afresh (`userSwitched`).
 * Errors the sign-in form shows: the server's message (401 'Invalid email or password.', 429
 * 'Too many failed sign-in attempts...'), or a connection message.
 *
 * Signing out forgets the user on this device (`forgetOnDevice`: their drafts, last screen and
 * changes waiting in the send queue), and `signedOutHere` tells the screen not to carry the
 * address they left to whoever signs in next. When changes of theirs still wait to be sent
 * (`countWaiting`), signing out asks first (`leaving.asking`): stay, or sign out and remove them.
 *
 * Effects the screen provides: `fetchMe`, `login`, `logout`, `countWaiting`, `userSwitched`,
 * `forgetOnDevice`.
 */
export interface AuthContext {
  user: SessionUser | null;
  error: string | null;
  /** Someone signed out on this screen (not an ended session): the next sign-in starts at home. */
  signedOutHere: boolean;
  /** How many of the user's changes still wait to be sent, while signing out asks. */
  waiting: number;
}

export type AuthEvent =
  | { type: 'login.submit'; email: string; password: string }
  | { type: 'logout' }
  /** Signing out with changes still waiting to be sent: go on (they are removed), or stay. */
  | { type: 'signout.confirm' }
  | { type: 'signout.cancel' }
  | { type: 'session.expired' }
  | { type: 'user.updated'; user: SessionUser }
  /** Signed in by another way than the sign-in form: the first-run setup page. */
  | { type: 'session.started'; user: SessionUser }
  | { type: 'check.retry' };

export const LOGIN_ERRORS = {
  email: 'Email is required',
  password: 'Password is required',
  network: 'Could not reach the server. Check your connection and try again.',
  unknown: 'Sign-in failed. Please try again.',
} as const;

/** The message for a failed sign-in (an ApiError-like value: status + message). */
export function loginErrorOf(error: unknown): string {
  const e = error as { status?: number; message?: string } | null;
  if (e?.status === 0) return LOGIN_ERRORS.network;
  if (e && (e.status === 401 || e.status === 429 || e.status === 403 || e.status === 400) && e.message)
    return e.message;
  return LOGIN_ERRORS.unknown;
}

/** The user who is signing out (signingOut is only entered while signed in). */
const leavingUser = ({ context }: { context: AuthContext }) => ({ userId: context.user?.user_id ?? 0 });

const isUnauthorised = (error: unknown) => (error as { status?: number } | null)?.status === 401;

export const authMachine = setup({
  types: { context: {} as AuthContext, events: {} as AuthEvent },
  actors: {
    fetchMe: fromPromise<SessionUser>(async () => {
      throw new Error('fetchMe is provided by the app');
    }),
    login: fromPromise<SessionUser, LoginBody>(async () => {
      throw new Error('login is provided by the app');
    }),
    logout: fromPromise<unknown>(async () => {
      throw new Error('logout is provided by the app');
    }),
    /** How many of the user's changes wait in the device's send queue. */
    countWaiting: fromPromise<number, { userId: number }>(async () => 0),
  },
  actions: {
    setUser: assign({
      user: (_, params: { user: SessionUser }) => params.user,
      error: null,
      signedOutHere: false,
    }),
    clearUser: assign({ user: null }),
    setError: assign({ error: (_, params: { message: string }) => params.message }),
    /** Another user signed in over an ended session: the screen starts the back office afresh. */
    userSwitched: () => {},
    /** The user signed out: what this device keeps of theirs (drafts, last screen) goes. */
    forgetOnDevice: (_, _params: { userId: number }) => {},
    markSignedOutHere: assign({ signedOutHere: true }),
    setWaiting: assign({ waiting: (_, params: { count: number }) => params.count }),
    clearError: assign({ error: null }),
  },
  guards: {
    isUnauthorised: (_, params: { error: unknown }) => isUnauthorised(params.error),
    hasWaiting: (_, params: { count: number }) => params.count > 0,
    hasEmail: ({ event }) => event.type === 'login.submit' && event.email.trim().length > 0,
    isComplete: ({ event }) =>
      event.type === 'login.submit' && event.email.trim().length > 0 && event.password.length > 0,
    isSameUser: ({ context }, params: { user: SessionUser | undefined }) =>
      context.user?.user_id !== undefined && context.user.user_id === params.user?.user_id,
  },
}).createMachine({
  id: 'auth',
  initial: 'checking',
  context: { user: null, error: null, signedOutHere: false, waiting: 0 },
  states: {
    checking: {
      invoke: {
        id: 'fetchMe',
        src: 'fetchMe',
        onDone: {
          target: 'signedIn',
          actions: { type: 'setUser', params: ({ event }) => ({ user: event.output }) },
        },
        onError: [
          {
            guard: { type: 'isUnauthorised', params: ({ event }) => ({ error: event.error }) },
            target: 'signedOut',
          },
          { target: 'unreachable' },
        ],
      },
    },
    unreachable: { on: { 'check.retry': 'checking' } },
    signedOut: {
      entry: 'clearUser',
      on: {
        'session.started': {
          target: 'signedIn',
          actions: { type: 'setUser', params: ({ event }) => ({ user: event.user }) },
        },
        'login.submit': [
          {
            guard: 'isComplete',
            target: 'signingIn',
          },
          {
            guard: 'hasEmail',
            actions: { type: 'setError', params: { message: LOGIN_ERRORS.password } },
          },
          { actions: { type: 'setError', params: { message: LOGIN_ERRORS.email } } },
        ],
      },
    },
    signingIn: {
      entry: 'clearError',
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ event }) => {
          const e = event as Extract<AuthEvent, { type: 'login.submit' }>;
          return { email: e.email, password: e.password };
        },
        onDone: {
          target: 'signedIn',
          actions: { type: 'setUser', params: ({ event }) => ({ user: event.output }) },
        },
        onError: {
          target: 'signedOut',
          actions: { type: 'setError', params: ({ event }) => ({ message: loginErrorOf(event.error) }) },
        },
      },
    },
    signedIn: {
      initial: 'active',
      on: {
        logout: 'leaving',
        'user.updated': { actions: { type: 'setUser', params: ({ event }) => ({ user: event.user }) } },
      },
      states: {
        active: { on: { 'session.expired': 'expired' } },
        /**
         * The server ended the session (401) while screens are open: they stay as they are (a form
         * keeps what was typed) and a sign-in dialog comes over them.
         */
        expired: {
          on: {
            'login.submit': [
              { guard: 'isComplete', target: 'reauthenticating' },
              {
                guard: 'hasEmail',
                actions: { type: 'setError', params: { message: LOGIN_ERRORS.password } },
              },
              { actions: { type: 'setError', params: { message: LOGIN_ERRORS.email } } },
            ],
          },
        },
        reauthenticating: {
          entry: 'clearError',
          invoke: {
            id: 'relogin',
            src: 'login',
            input: ({ event }) => {
              const e = event as Extract<AuthEvent, { type: 'login.submit' }>;
              return { email: e.email, password: e.password };
            },
            onDone: [
              {
                guard: { type: 'isSameUser', params: ({ event }) => ({ user: event.output }) },
                target: 'active',
                actions: { type: 'setUser', params: ({ event }) => ({ user: event.output }) },
              },
              // someone else signed in: what is on screen was the other user's; start afresh
              {
                target: 'active',
                actions: [
                  { type: 'setUser', params: ({ event }) => ({ user: event.output }) },
                  'userSwitched',
                ],
              },
            ],
            onError: {
              target: 'expired',
              actions: { type: 'setError', params: ({ event }) => ({ message: loginErrorOf(event.error) }) },
            },
          },
        },
      },
    },
    /** Sign out was asked for: first, whether changes of theirs still wait to be sent. */
    leaving: {
      initial: 'counting',
      states: {
        counting: {
          invoke: {
            id: 'countWaiting',
            src: 'countWaiting',
            input: leavingUser,
            onDone: [
              {
                guard: { type: 'hasWaiting', params: ({ event }) => ({ count: event.output }) },
                target: 'asking',
                actions: { type: 'setWaiting', params: ({ event }) => ({ count: event.output }) },
              },
              { target: '#auth.signingOut' },
            ],
            onError: '#auth.signingOut',
          },
        },
        /** '2 of your changes are still waiting to be sent. Signing out removes them.' */
        asking: {
          on: {
            'signout.confirm': '#auth.signingOut',
            'signout.cancel': '#auth.signedIn',
          },
        },
      },
    },
    signingOut: {
      invoke: {
        id: 'logout',
        src: 'logout',
        // signed out even when the server could not be told: the device forgets the user either way
        onDone: {
          target: 'signedOut',
          actions: [{ type: 'forgetOnDevice', params: leavingUser }, 'markSignedOutHere'],
        },
        onError: {
          target: 'signedOut',
          actions: [{ type: 'forgetOnDevice', params: leavingUser }, 'markSignedOutHere'],
        },
      },
    },
  },
});
