import { assign, fromPromise, setup } from 'xstate';
import type { SessionUser, SetupBody, SetupStatus } from '../../contract/auth';

/**
 * The first five minutes (server/services/owner.ts): asks whether the site has an account yet; when
 * it has none, the sign-in page says how to make one, and the setup page (the address the server
 * printed) makes the owner account: both passwords must match here, the server checks the token
 * and the password rules and answers a field's message, which the form shows. Made, the owner is
 * signed in (`notifySignedIn`).
 *
 * Effects the screen provides: `fetchSetupStatus`, `createOwner`, `notifySignedIn`.
 */
export const SETUP_PASSWORD_MISMATCH = 'The passwords do not match.';
export const SETUP_UNREACHABLE = 'Could not reach the server. Check your connection and try again.';

export interface FirstRunContext {
  errors: Record<string, string>;
  /** How this server makes an account from its shell (npm, or node in the container image). */
  createAdmin: string | null;
}

export type FirstRunEvent = {
  type: 'form.submit';
  token: string;
  email: string;
  password: string;
  repeat: string;
};

/** The field messages of a refused setup (an ApiError-like value: status, message, errors). */
export function setupErrorsOf(error: unknown): Record<string, string> {
  const e = error as { status?: number; message?: string; errors?: Record<string, string> } | null;
  if (e?.errors && Object.keys(e.errors).length > 0) return e.errors;
  if (!e || e.status === 0 || !e.message) return { form: SETUP_UNREACHABLE };
  return { form: e.message };
}

export const firstRunMachine = setup({
  types: { context: {} as FirstRunContext, events: {} as FirstRunEvent },
  actors: {
    fetchSetupStatus: fromPromise<SetupStatus>(async () => {
      throw new Error('fetchSetupStatus is provided by the app');
    }),
    createOwner: fromPromise<SessionUser, SetupBody>(async () => {
      throw new Error('createOwner is provided by the app');
    }),
  },
  actions: {
    setErrors: assign({ errors: (_, p: { errors: Record<string, string> }) => p.errors }),
    clearErrors: assign({ errors: {} }),
    setCommand: assign({ createAdmin: (_, p: { status: SetupStatus }) => p.status.create_admin ?? null }),
    notifySignedIn: (_, _p: { user: SessionUser }) => {},
  },
  guards: {
    isNeeded: (_, p: { status: SetupStatus }) => p.status.needed,
    repeatMatches: ({ event }) => event.password === event.repeat,
  },
}).createMachine({
  id: 'firstRun',
  initial: 'asking',
  context: { errors: {}, createAdmin: null },
  states: {
    asking: {
      invoke: {
        id: 'fetchSetupStatus',
        src: 'fetchSetupStatus',
        onDone: [
          {
            guard: { type: 'isNeeded', params: ({ event }) => ({ status: event.output }) },
            target: 'needed',
            actions: { type: 'setCommand', params: ({ event }) => ({ status: event.output }) },
          },
          { target: 'notNeeded' },
        ],
        // nothing to say when the server cannot be asked: the sign-in form says it on use
        onError: 'notNeeded',
      },
    },
    notNeeded: {},
    needed: {
      on: {
        'form.submit': [
          { guard: 'repeatMatches', target: 'saving' },
          { actions: { type: 'setErrors', params: { errors: { repeat: SETUP_PASSWORD_MISMATCH } } } },
        ],
      },
    },
    saving: {
      entry: 'clearErrors',
      invoke: {
        id: 'createOwner',
        src: 'createOwner',
        input: ({ event }) => ({ token: event.token, email: event.email, password: event.password }),
        onDone: {
          target: 'done',
          actions: { type: 'notifySignedIn', params: ({ event }) => ({ user: event.output }) },
        },
        onError: {
          target: 'needed',
          actions: { type: 'setErrors', params: ({ event }) => ({ errors: setupErrorsOf(event.error) }) },
        },
      },
    },
    done: { type: 'final' },
  },
});
