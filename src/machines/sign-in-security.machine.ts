import { assign, fromPromise, setup } from 'xstate';
import type {
  FactorAddedAnswer,
  FactorsAnswer,
  ReauthBody,
  SessionRow,
  TotpSetupAnswer,
} from '../../contract/auth';

/**
 * "Sign-in security" on the account screen (docs/decisions/024-second-factors.md): a person's
 * second factors, recovery codes and signed-in sessions.
 *
 * - Adding an authenticator app: a new secret (`startingTotp`), shown as a QR code and as text
 *   (`totpShowing`), counted once its first code is right (`confirmingTotp`).
 * - Adding a passkey: the browser's own dialog (`addingPasskey`).
 * - The first factor comes with ten recovery codes, shown once (`showingCodes`); a new set can be
 *   made (`renewingCodes`).
 * - Removing a factor asks first (`confirmingRemove`).
 * - Every change of factors needs a fresh proof (password and code, or a passkey, within 5
 *   minutes): without one, or when the server says it has run out (403 `reauth`), the change waits
 *   in `proving` and goes on once the proof is given.
 * - Sessions: end one, or all but this one (`endingSession`).
 *
 * Effects: `load`, `beginTotp`, `confirmTotp`, `addPasskey`, `removeFactor`, `renewCodes`,
 * `reauth`, `reauthPasskey`, `endSessions`, `factorsChanged` (the app reads the user again: a
 * person who had to set one up may now go on).
 */

/** A change of factors, waiting for the fresh proof. */
export type FactorChange =
  | { type: 'totp.add' }
  | { type: 'passkey.add'; name: string }
  | { type: 'remove'; id: number }
  | { type: 'codes.renew' };

export interface SecurityContext {
  factors: FactorsAnswer | null;
  sessions: SessionRow[];
  /** The authenticator app being added: its secret, link and QR code. */
  totp: TotpSetupAnswer | null;
  /** Recovery codes just made: shown once. */
  codes: string[] | null;
  /** The change waiting for the proof, or being asked about (remove). */
  pending: FactorChange | null;
  error: string | null;
  fieldErrors: Record<string, string>;
}

export type SecurityEvent =
  | { type: 'totp.add' }
  | { type: 'totp.confirm'; code: string; name: string }
  | { type: 'totp.cancel' }
  | { type: 'passkey.add'; name: string }
  | { type: 'factor.remove'; id: number }
  | { type: 'remove.confirm' }
  | { type: 'remove.cancel' }
  | { type: 'codes.renew' }
  | { type: 'codes.done' }
  | { type: 'proof.submit'; password: string; code: string }
  | { type: 'proof.passkey' }
  | { type: 'proof.cancel' }
  | { type: 'session.end'; id: string }
  | { type: 'list.retry' };

export const SECURITY_ERRORS = {
  network: 'Could not reach the server. Check your connection and try again.',
  unknown: 'That did not work. Please try again.',
  passkey: 'The passkey was not added. Try again, or use an authenticator app.',
} as const;

type Failure = {
  status?: number;
  message?: string;
  errors?: Record<string, string>;
  codes?: Record<string, string>;
  name?: string;
};

/** The server asks for the fresh proof first (403, code `reauth`). */
const needsProof = (error: unknown) => {
  const e = error as Failure | null;
  return e?.status === 403 && e.codes?.form === 'reauth';
};
export const messageOf = (error: unknown, fallback: string = SECURITY_ERRORS.unknown): string => {
  const e = error as Failure | null;
  if (e?.status === 0) return SECURITY_ERRORS.network;
  if (e?.name === 'NotAllowedError' || e?.name === 'AbortError' || e?.name === 'InvalidStateError')
    return SECURITY_ERRORS.passkey;
  return e?.message && e.status !== undefined ? e.message : fallback;
};
export const fieldErrorsOf = (error: unknown): Record<string, string> => {
  const e = error as Failure | null;
  return e?.errors && Object.keys(e.errors).length ? e.errors : { form: messageOf(error) };
};

/** When a change needs a fresh proof first: no proof, or its 5 minutes are over. */
const proofIsFresh = (factors: FactorsAnswer | null) =>
  Boolean(factors?.proof_until && Date.parse(factors.proof_until) > Date.now());

export const signInSecurityMachine = setup({
  types: { context: {} as SecurityContext, events: {} as SecurityEvent },
  actors: {
    load: fromPromise<{ factors: FactorsAnswer; sessions: SessionRow[] }>(async () => {
      throw new Error('load is provided by the app');
    }),
    beginTotp: fromPromise<TotpSetupAnswer>(async () => {
      throw new Error('beginTotp is provided by the app');
    }),
    confirmTotp: fromPromise<FactorAddedAnswer, { code: string; name: string }>(async () => {
      throw new Error('confirmTotp is provided by the app');
    }),
    addPasskey: fromPromise<FactorAddedAnswer, { name: string }>(async () => {
      throw new Error('addPasskey is provided by the app');
    }),
    removeFactor: fromPromise<FactorsAnswer, { id: number }>(async () => {
      throw new Error('removeFactor is provided by the app');
    }),
    renewCodes: fromPromise<FactorAddedAnswer>(async () => {
      throw new Error('renewCodes is provided by the app');
    }),
    reauth: fromPromise<FactorsAnswer, ReauthBody>(async () => {
      throw new Error('reauth is provided by the app');
    }),
    reauthPasskey: fromPromise<FactorsAnswer>(async () => {
      throw new Error('reauthPasskey is provided by the app');
    }),
    endSessions: fromPromise<SessionRow[], { id: string }>(async () => {
      throw new Error('endSessions is provided by the app');
    }),
  },
  actions: {
    setLoaded: assign((_, p: { factors: FactorsAnswer; sessions: SessionRow[] }) => ({
      factors: p.factors,
      sessions: p.sessions,
      error: null,
    })),
    setFactors: assign({ factors: (_, p: { factors: FactorsAnswer }) => p.factors }),
    setAdded: assign((_, p: { answer: FactorAddedAnswer }) => ({
      factors: p.answer.factors,
      codes: p.answer.recovery_codes ?? null,
      totp: null,
      pending: null,
      error: null,
      fieldErrors: {},
    })),
    setTotp: assign({ totp: (_, p: { totp: TotpSetupAnswer }) => p.totp, fieldErrors: {} }),
    clearTotp: assign({ totp: null, fieldErrors: {} }),
    setSessions: assign({ sessions: (_, p: { sessions: SessionRow[] }) => p.sessions, error: null }),
    keepPending: assign({
      pending: ({ event }): FactorChange | null => {
        if (event.type === 'totp.add' || event.type === 'codes.renew') return { type: event.type };
        if (event.type === 'passkey.add') return { type: 'passkey.add', name: event.name };
        if (event.type === 'factor.remove') return { type: 'remove', id: event.id };
        return null;
      },
      error: null,
      fieldErrors: {},
    }),
    clearPending: assign({ pending: null, fieldErrors: {} }),
    clearCodes: assign({ codes: null }),
    setError: assign({ error: (_, p: { message: string }) => p.message }),
    clearError: assign({ error: null }),
    setFieldErrors: assign({ fieldErrors: (_, p: { errors: Record<string, string> }) => p.errors }),
    factorsChanged: () => {},
  },
  guards: {
    proofIsFresh: ({ context }) => proofIsFresh(context.factors),
    needsProof: (_, p: { error: unknown }) => needsProof(p.error),
    hasCodes: ({ context }) => Boolean(context.codes?.length),
    pendingIs: ({ context }, p: { type: FactorChange['type'] }) => context.pending?.type === p.type,
    hasTotpCode: ({ event }) => event.type === 'totp.confirm' && event.code.trim().length > 0,
  },
}).createMachine({
  id: 'signInSecurity',
  initial: 'loading',
  context: {
    factors: null,
    sessions: [],
    totp: null,
    codes: null,
    pending: null,
    error: null,
    fieldErrors: {},
  },
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        onDone: { target: 'ready', actions: { type: 'setLoaded', params: ({ event }) => event.output } },
        onError: {
          target: 'failed',
          actions: { type: 'setError', params: ({ event }) => ({ message: messageOf(event.error) }) },
        },
      },
    },
    failed: { on: { 'list.retry': 'loading' } },
    ready: {
      on: {
        'totp.add': [
          { guard: 'proofIsFresh', target: 'startingTotp', actions: 'keepPending' },
          { target: 'proving', actions: 'keepPending' },
        ],
        'passkey.add': [
          { guard: 'proofIsFresh', target: 'addingPasskey', actions: 'keepPending' },
          { target: 'proving', actions: 'keepPending' },
        ],
        'codes.renew': [
          { guard: 'proofIsFresh', target: 'renewingCodes', actions: 'keepPending' },
          { target: 'proving', actions: 'keepPending' },
        ],
        'factor.remove': { target: 'confirmingRemove', actions: 'keepPending' },
        'session.end': 'endingSession',
      },
    },
    /** "Remove this factor?" */
    confirmingRemove: {
      on: {
        'remove.confirm': [{ guard: 'proofIsFresh', target: 'removing' }, { target: 'proving' }],
        'remove.cancel': { target: 'ready', actions: 'clearPending' },
      },
    },
    /** The fresh proof, before the pending change goes on. */
    proving: {
      on: {
        'proof.submit': 'reauthenticating',
        'proof.passkey': 'reauthenticatingWithPasskey',
        'proof.cancel': { target: 'ready', actions: 'clearPending' },
      },
    },
    reauthenticating: {
      invoke: {
        id: 'reauth',
        src: 'reauth',
        input: ({ event }) => {
          const e = event as Extract<SecurityEvent, { type: 'proof.submit' }>;
          return e.code.trim() ? { password: e.password, code: e.code.trim() } : { password: e.password };
        },
        onDone: {
          target: 'proven',
          actions: { type: 'setFactors', params: ({ event }) => ({ factors: event.output }) },
        },
        onError: {
          target: 'proving',
          actions: {
            type: 'setFieldErrors',
            params: ({ event }) => ({ errors: fieldErrorsOf(event.error) }),
          },
        },
      },
    },
    reauthenticatingWithPasskey: {
      invoke: {
        id: 'reauthPasskey',
        src: 'reauthPasskey',
        onDone: {
          target: 'proven',
          actions: { type: 'setFactors', params: ({ event }) => ({ factors: event.output }) },
        },
        onError: {
          target: 'proving',
          actions: {
            type: 'setFieldErrors',
            params: ({ event }) => ({ errors: { form: messageOf(event.error) } }),
          },
        },
      },
    },
    /** Proven: the change that waited goes on. */
    proven: {
      entry: 'clearError',
      always: [
        { guard: { type: 'pendingIs', params: { type: 'totp.add' } }, target: 'startingTotp' },
        { guard: { type: 'pendingIs', params: { type: 'passkey.add' } }, target: 'addingPasskey' },
        { guard: { type: 'pendingIs', params: { type: 'remove' } }, target: 'removing' },
        { guard: { type: 'pendingIs', params: { type: 'codes.renew' } }, target: 'renewingCodes' },
        { target: 'ready' },
      ],
    },
    startingTotp: {
      invoke: {
        id: 'beginTotp',
        src: 'beginTotp',
        onDone: {
          target: 'totpShowing',
          actions: { type: 'setTotp', params: ({ event }) => ({ totp: event.output }) },
        },
        onError: [
          {
            guard: { type: 'needsProof', params: ({ event }) => ({ error: event.error }) },
            target: 'proving',
          },
          {
            target: 'ready',
            actions: { type: 'setError', params: ({ event }) => ({ message: messageOf(event.error) }) },
          },
        ],
      },
    },
    /** The QR code and the key; the first code confirms it. */
    totpShowing: {
      on: {
        'totp.confirm': [
          { guard: 'hasTotpCode', target: 'confirmingTotp' },
          { actions: { type: 'setFieldErrors', params: { errors: { code: 'Enter the code' } } } },
        ],
        'totp.cancel': { target: 'ready', actions: ['clearTotp', 'clearPending'] },
      },
    },
    confirmingTotp: {
      invoke: {
        id: 'confirmTotp',
        src: 'confirmTotp',
        input: ({ event }) => {
          const e = event as Extract<SecurityEvent, { type: 'totp.confirm' }>;
          return { code: e.code.trim(), name: e.name.trim() };
        },
        onDone: {
          target: 'added',
          actions: { type: 'setAdded', params: ({ event }) => ({ answer: event.output }) },
        },
        onError: [
          {
            guard: { type: 'needsProof', params: ({ event }) => ({ error: event.error }) },
            target: 'proving',
            actions: ['clearTotp', assign({ pending: { type: 'totp.add' } })],
          },
          {
            target: 'totpShowing',
            actions: {
              type: 'setFieldErrors',
              params: ({ event }) => ({ errors: fieldErrorsOf(event.error) }),
            },
          },
        ],
      },
    },
    addingPasskey: {
      invoke: {
        id: 'addPasskey',
        src: 'addPasskey',
        input: ({ context }) => ({
          name: context.pending?.type === 'passkey.add' ? context.pending.name : '',
        }),
        onDone: {
          target: 'added',
          actions: { type: 'setAdded', params: ({ event }) => ({ answer: event.output }) },
        },
        onError: [
          {
            guard: { type: 'needsProof', params: ({ event }) => ({ error: event.error }) },
            target: 'proving',
          },
          {
            target: 'ready',
            actions: [
              'clearPending',
              {
                type: 'setError',
                params: ({ event }) => ({ message: messageOf(event.error, SECURITY_ERRORS.passkey) }),
              },
            ],
          },
        ],
      },
    },
    removing: {
      invoke: {
        id: 'removeFactor',
        src: 'removeFactor',
        input: ({ context }) => ({ id: context.pending?.type === 'remove' ? context.pending.id : 0 }),
        onDone: {
          target: 'ready',
          actions: [
            { type: 'setFactors', params: ({ event }) => ({ factors: event.output }) },
            'clearPending',
            'clearError',
            'factorsChanged',
          ],
        },
        onError: [
          {
            guard: { type: 'needsProof', params: ({ event }) => ({ error: event.error }) },
            target: 'proving',
          },
          {
            target: 'ready',
            actions: [
              'clearPending',
              { type: 'setError', params: ({ event }) => ({ message: messageOf(event.error) }) },
            ],
          },
        ],
      },
    },
    renewingCodes: {
      invoke: {
        id: 'renewCodes',
        src: 'renewCodes',
        onDone: {
          target: 'showingCodes',
          actions: { type: 'setAdded', params: ({ event }) => ({ answer: event.output }) },
        },
        onError: [
          {
            guard: { type: 'needsProof', params: ({ event }) => ({ error: event.error }) },
            target: 'proving',
          },
          {
            target: 'ready',
            actions: [
              'clearPending',
              { type: 'setError', params: ({ event }) => ({ message: messageOf(event.error) }) },
            ],
          },
        ],
      },
    },
    /** A factor was added: the app reads the user again; a first factor's recovery codes are shown. */
    added: {
      entry: 'factorsChanged',
      always: [{ guard: 'hasCodes', target: 'showingCodes' }, { target: 'ready' }],
    },
    /** New recovery codes, shown once: saved, then gone from the screen. */
    showingCodes: { on: { 'codes.done': { target: 'ready', actions: 'clearCodes' } } },
    endingSession: {
      invoke: {
        id: 'endSessions',
        src: 'endSessions',
        input: ({ event }) => ({ id: (event as Extract<SecurityEvent, { type: 'session.end' }>).id }),
        onDone: {
          target: 'ready',
          actions: { type: 'setSessions', params: ({ event }) => ({ sessions: event.output }) },
        },
        onError: {
          target: 'ready',
          actions: { type: 'setError', params: ({ event }) => ({ message: messageOf(event.error) }) },
        },
      },
    },
  },
});
