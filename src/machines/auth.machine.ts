import { assign, fromPromise, setup } from 'xstate';
import type { LoginAnswer, LoginBody, SecondStep, SecondStepAnswer, SessionUser } from '../../contract/auth';

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
 * A right password of an account with a second factor leads to the second step (`secondStep`,
 * docs/decisions/024-second-factors.md): a code from an authenticator app or a recovery code
 * (`verifyingCode`), or a passkey (`verifyingPasskey`); cancelling drops the half-done sign-in. A
 * passkey also signs in on its own from the sign-in page (`signingInWithPasskey`). Over an ended
 * session the dialog asks for the second step too (`signedIn.expiredSecondStep`).
 *
 * Effects the screen provides: `fetchMe`, `login`, `logout`, `verifyCode`, `passkey`,
 * `countWaiting`, `userSwitched`, `forgetOnDevice`, `notifyRecoveryLeft`.
 */
export interface AuthContext {
  user: SessionUser | null;
  error: string | null;
  /** Someone signed out on this screen (not an ended session): the next sign-in starts at home. */
  signedOutHere: boolean;
  /** How many of the user's changes still wait to be sent, while signing out asks. */
  waiting: number;
  /** The second step a right password led to: its methods and when it ends. */
  secondStep: SecondStep | null;
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
  | { type: 'check.retry' }
  /** The second step: a code (authenticator app or recovery code), or a passkey. */
  | { type: 'code.submit'; code: string }
  | { type: 'passkey.use' }
  /** Back to the password: the half-done sign-in ends. */
  | { type: 'secondStep.cancel' }
  /** "Sign in with a passkey" on the sign-in page, without a password. */
  | { type: 'passkey.signIn' };

export const LOGIN_ERRORS = {
  email: 'Email is required',
  password: 'Password is required',
  network: 'Could not reach the server. Check your connection and try again.',
  unknown: 'Sign-in failed. Please try again.',
  code: 'Enter the code',
  passkeyCancelled: 'The passkey was not used. Try again, or use another way.',
} as const;

/** What a sign-in (or the session check) answered: the user, or a second step still to do. */
const secondStepOf = (answer: unknown): SecondStep | null =>
  (answer as { second_step?: SecondStep } | null)?.second_step ?? null;

/** A refusal of the second step itself (the code field's), not the end of the half-done sign-in. */
const isCodeRefusal = (error: unknown) => {
  const e = error as { status?: number; errors?: Record<string, string> } | null;
  return e?.status !== 401 || Boolean(e.errors?.code || e.errors?.form);
};

/** The message of a failed passkey ceremony: the browser's refusal (cancelled, timed out) or the server's. */
function passkeyErrorOf(error: unknown): string {
  const e = error as { name?: string; status?: number } | null;
  if (e?.name === 'NotAllowedError' || e?.name === 'AbortError') return LOGIN_ERRORS.passkeyCancelled;
  return e?.status === undefined ? LOGIN_ERRORS.passkeyCancelled : loginErrorOf(error);
}

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

/**
 * Signed in again over an ended session: the same user goes on where they were; someone else
 * starts afresh (what is on screen was the other user's).
 */
const backOver = [
  {
    guard: {
      type: 'isSameUser' as const,
      params: ({ event }: { event: { output: unknown } }) => ({ user: event.output as SessionUser }),
    },
    target: 'active',
    actions: {
      type: 'setUser' as const,
      params: ({ event }: { event: { output: unknown } }) => ({ user: event.output as SessionUser }),
    },
  },
  {
    target: 'active',
    actions: [
      {
        type: 'setUser' as const,
        params: ({ event }: { event: { output: unknown } }) => ({ user: event.output as SessionUser }),
      },
      'userSwitched' as const,
    ],
  },
];

export const authMachine = setup({
  types: { context: {} as AuthContext, events: {} as AuthEvent },
  actors: {
    /** The signed-in user, or the second step a half-done sign-in waits for (401 when neither). */
    fetchMe: fromPromise<LoginAnswer>(async () => {
      throw new Error('fetchMe is provided by the app');
    }),
    login: fromPromise<LoginAnswer, LoginBody>(async () => {
      throw new Error('login is provided by the app');
    }),
    verifyCode: fromPromise<SecondStepAnswer, { code: string }>(async () => {
      throw new Error('verifyCode is provided by the app');
    }),
    /** A passkey ceremony: the second step of a half-done sign-in, or a sign-in on its own. */
    passkey: fromPromise<SessionUser>(async () => {
      throw new Error('passkey is provided by the app');
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
      secondStep: null,
    }),
    setSecondStep: assign({
      secondStep: (_, params: { answer: unknown }) => secondStepOf(params.answer),
      error: null,
    }),
    clearSecondStep: assign({ secondStep: null }),
    /** A recovery code was used: how many are left (the screen says it). */
    notifyRecoveryLeft: (_, _params: { left: number | undefined }) => {},
    clearUser: assign({ user: null }),
    /** The user as the server now sees them (a screen changed them): nothing else changes. */
    updateUser: assign({ user: (_, params: { user: SessionUser }) => params.user }),
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
    hasCode: ({ event }) => event.type === 'code.submit' && event.code.trim().length > 0,
    needsSecondStep: (_, params: { answer: unknown }) => secondStepOf(params.answer) !== null,
    isCodeRefusal: (_, params: { error: unknown }) => isCodeRefusal(params.error),
    isComplete: ({ event }) =>
      event.type === 'login.submit' && event.email.trim().length > 0 && event.password.length > 0,
    isSameUser: ({ context }, params: { user: SessionUser | undefined }) =>
      context.user?.user_id !== undefined && context.user.user_id === params.user?.user_id,
  },
}).createMachine({
  id: 'auth',
  initial: 'checking',
  context: { user: null, error: null, signedOutHere: false, waiting: 0, secondStep: null },
  states: {
    checking: {
      invoke: {
        id: 'fetchMe',
        src: 'fetchMe',
        onDone: [
          // a reload in the middle of signing in: the second step goes on
          {
            guard: { type: 'needsSecondStep', params: ({ event }) => ({ answer: event.output }) },
            target: 'secondStep',
            actions: { type: 'setSecondStep', params: ({ event }) => ({ answer: event.output }) },
          },
          {
            target: 'signedIn',
            actions: { type: 'setUser', params: ({ event }) => ({ user: event.output as SessionUser }) },
          },
        ],
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
      entry: ['clearUser', 'clearSecondStep'],
      on: {
        'passkey.signIn': 'signingInWithPasskey',
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
        onDone: [
          {
            guard: { type: 'needsSecondStep', params: ({ event }) => ({ answer: event.output }) },
            target: 'secondStep',
            actions: { type: 'setSecondStep', params: ({ event }) => ({ answer: event.output }) },
          },
          {
            target: 'signedIn',
            actions: { type: 'setUser', params: ({ event }) => ({ user: event.output as SessionUser }) },
          },
        ],
        onError: {
          target: 'signedOut',
          actions: { type: 'setError', params: ({ event }) => ({ message: loginErrorOf(event.error) }) },
        },
      },
    },
    /** A passkey alone, from the sign-in page (no password). */
    signingInWithPasskey: {
      entry: 'clearError',
      invoke: {
        id: 'passkeySignIn',
        src: 'passkey',
        onDone: {
          target: 'signedIn',
          actions: { type: 'setUser', params: ({ event }) => ({ user: event.output }) },
        },
        onError: {
          target: 'signedOut',
          actions: { type: 'setError', params: ({ event }) => ({ message: passkeyErrorOf(event.error) }) },
        },
      },
    },
    /** The password was right; the account has a second factor: a code or a passkey finishes it. */
    secondStep: {
      on: {
        'code.submit': [
          { guard: 'hasCode', target: 'verifyingCode' },
          { actions: { type: 'setError', params: { message: LOGIN_ERRORS.code } } },
        ],
        'passkey.use': 'verifyingPasskey',
        'secondStep.cancel': 'cancellingSecondStep',
      },
    },
    verifyingCode: {
      entry: 'clearError',
      invoke: {
        id: 'verifyCode',
        src: 'verifyCode',
        input: ({ event }) => ({ code: (event as Extract<AuthEvent, { type: 'code.submit' }>).code.trim() }),
        onDone: {
          target: 'signedIn',
          actions: [
            { type: 'setUser', params: ({ event }) => ({ user: event.output }) },
            { type: 'notifyRecoveryLeft', params: ({ event }) => ({ left: event.output.recovery_left }) },
          ],
        },
        onError: [
          {
            guard: { type: 'isCodeRefusal', params: ({ event }) => ({ error: event.error }) },
            target: 'secondStep',
            actions: { type: 'setError', params: ({ event }) => ({ message: loginErrorOf(event.error) }) },
          },
          // the half-done sign-in ended (5 minutes): the password again
          {
            target: 'signedOut',
            actions: { type: 'setError', params: ({ event }) => ({ message: loginErrorOf(event.error) }) },
          },
        ],
      },
    },
    verifyingPasskey: {
      entry: 'clearError',
      invoke: {
        id: 'passkeyStep',
        src: 'passkey',
        onDone: {
          target: 'signedIn',
          actions: { type: 'setUser', params: ({ event }) => ({ user: event.output }) },
        },
        onError: [
          {
            guard: { type: 'isCodeRefusal', params: ({ event }) => ({ error: event.error }) },
            target: 'secondStep',
            actions: { type: 'setError', params: ({ event }) => ({ message: passkeyErrorOf(event.error) }) },
          },
          {
            target: 'signedOut',
            actions: { type: 'setError', params: ({ event }) => ({ message: loginErrorOf(event.error) }) },
          },
        ],
      },
    },
    /** Back to the password: the server forgets the half-done sign-in (whether or not it answers). */
    cancellingSecondStep: {
      invoke: { id: 'cancelSecondStep', src: 'logout', onDone: 'signedOut', onError: 'signedOut' },
    },
    signedIn: {
      initial: 'active',
      on: {
        logout: 'leaving',
        'user.updated': { actions: { type: 'updateUser', params: ({ event }) => ({ user: event.user }) } },
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
                guard: { type: 'needsSecondStep', params: ({ event }) => ({ answer: event.output }) },
                target: 'expiredSecondStep',
                actions: { type: 'setSecondStep', params: ({ event }) => ({ answer: event.output }) },
              },
              ...backOver,
            ],
            onError: {
              target: 'expired',
              actions: { type: 'setError', params: ({ event }) => ({ message: loginErrorOf(event.error) }) },
            },
          },
        },
        /** Signing in again over an ended session, with a second factor: the dialog asks for it. */
        expiredSecondStep: {
          on: {
            'code.submit': [
              { guard: 'hasCode', target: 'reverifying' },
              { actions: { type: 'setError', params: { message: LOGIN_ERRORS.code } } },
            ],
            'passkey.use': 'reverifyingPasskey',
            'secondStep.cancel': { target: 'expired', actions: 'clearSecondStep' },
          },
        },
        reverifying: {
          entry: 'clearError',
          invoke: {
            id: 'reverifyCode',
            src: 'verifyCode',
            input: ({ event }) => ({
              code: (event as Extract<AuthEvent, { type: 'code.submit' }>).code.trim(),
            }),
            onDone: backOver,
            onError: [
              {
                guard: { type: 'isCodeRefusal', params: ({ event }) => ({ error: event.error }) },
                target: 'expiredSecondStep',
                actions: {
                  type: 'setError',
                  params: ({ event }) => ({ message: loginErrorOf(event.error) }),
                },
              },
              {
                target: 'expired',
                actions: [
                  'clearSecondStep',
                  { type: 'setError', params: ({ event }) => ({ message: loginErrorOf(event.error) }) },
                ],
              },
            ],
          },
        },
        reverifyingPasskey: {
          entry: 'clearError',
          invoke: {
            id: 'reverifyPasskey',
            src: 'passkey',
            onDone: backOver,
            onError: {
              target: 'expiredSecondStep',
              actions: {
                type: 'setError',
                params: ({ event }) => ({ message: passkeyErrorOf(event.error) }),
              },
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
