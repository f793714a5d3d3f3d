import { assign, fromPromise, setup } from 'xstate';
import type { FactorsAnswer, ReauthBody } from '../../contract/auth';
import { fieldErrorsOf, messageOf } from './sign-in-security.machine';

/**
 * "Confirm it is you" for the back office's changes that grant power or touch how someone signs in
 * (docs/decisions/009-security-model.md, "Fresh proof"): creating or promoting users, resetting a
 * password, clearing factors, editing roles, ending sessions. When the server refuses such a change
 * for want of a fresh proof (403 `reauth`), the API client asks this machine (`proof.ask`, carrying
 * how to answer); it reads which factors the person has (`loading`), asks for the password and a
 * code or a passkey (`asking`), proves (`proving`, `provingWithPasskey`) and answers every waiting
 * change: true, and the change is sent again; false (Cancel, Escape), and the refusal stands. Asks
 * that come while it is open wait for the same proof.
 *
 * Effects: `loadFactors`, `reauth`, `reauthPasskey`.
 */
export type ProofEvent =
  | { type: 'proof.ask'; settle: (proven: boolean) => void }
  | { type: 'proof.submit'; password: string; code: string }
  | { type: 'proof.passkey' }
  | { type: 'proof.cancel' };

interface ProofContext {
  /** The person's factors (which fields the dialog asks), once read. */
  factors: FactorsAnswer | null;
  /** The changes waiting for this proof. */
  waiting: ((proven: boolean) => void)[];
  fieldErrors: Record<string, string>;
}

export const freshProofMachine = setup({
  types: { context: {} as ProofContext, events: {} as ProofEvent },
  actors: {
    loadFactors: fromPromise<FactorsAnswer>(async () => {
      throw new Error('loadFactors is provided by the app');
    }),
    reauth: fromPromise<FactorsAnswer, ReauthBody>(async () => {
      throw new Error('reauth is provided by the app');
    }),
    reauthPasskey: fromPromise<FactorsAnswer>(async () => {
      throw new Error('reauthPasskey is provided by the app');
    }),
  },
  actions: {
    addWaiting: assign({
      waiting: ({ context, event }) =>
        event.type === 'proof.ask' ? [...context.waiting, event.settle] : context.waiting,
    }),
    setFactors: assign({ factors: (_, p: { factors: FactorsAnswer }) => p.factors }),
    setFieldErrors: assign({ fieldErrors: (_, p: { errors: Record<string, string> }) => p.errors }),
    /** Every waiting change hears the outcome; the dialog starts empty next time. */
    settle: assign(({ context }, p: { proven: boolean }) => {
      for (const answer of context.waiting) answer(p.proven);
      return { waiting: [], fieldErrors: {} };
    }),
  },
}).createMachine({
  id: 'freshProof',
  initial: 'idle',
  context: { factors: null, waiting: [], fieldErrors: {} },
  on: { 'proof.ask': { actions: 'addWaiting' } },
  states: {
    idle: {
      on: { 'proof.ask': { target: 'loading', actions: 'addWaiting' } },
    },
    /** Which factors the person has, so that the dialog asks for the right ones. */
    loading: {
      invoke: {
        id: 'loadFactors',
        src: 'loadFactors',
        onDone: {
          target: 'asking',
          actions: { type: 'setFactors', params: ({ event }) => ({ factors: event.output }) },
        },
        onError: {
          target: 'asking',
          actions: {
            type: 'setFieldErrors',
            params: ({ event }) => ({ errors: { form: messageOf(event.error) } }),
          },
        },
      },
    },
    asking: {
      on: {
        'proof.submit': 'proving',
        'proof.passkey': 'provingWithPasskey',
        'proof.cancel': { target: 'idle', actions: { type: 'settle', params: { proven: false } } },
      },
    },
    proving: {
      invoke: {
        id: 'reauth',
        src: 'reauth',
        input: ({ event }) => {
          const e = event as Extract<ProofEvent, { type: 'proof.submit' }>;
          return e.code.trim() ? { password: e.password, code: e.code.trim() } : { password: e.password };
        },
        onDone: {
          target: 'idle',
          actions: [
            { type: 'setFactors', params: ({ event }) => ({ factors: event.output }) },
            { type: 'settle', params: { proven: true } },
          ],
        },
        onError: {
          target: 'asking',
          actions: {
            type: 'setFieldErrors',
            params: ({ event }) => ({ errors: fieldErrorsOf(event.error) }),
          },
        },
      },
    },
    provingWithPasskey: {
      invoke: {
        id: 'reauthPasskey',
        src: 'reauthPasskey',
        onDone: {
          target: 'idle',
          actions: [
            { type: 'setFactors', params: ({ event }) => ({ factors: event.output }) },
            { type: 'settle', params: { proven: true } },
          ],
        },
        onError: {
          target: 'asking',
          actions: {
            type: 'setFieldErrors',
            params: ({ event }) => ({ errors: { form: messageOf(event.error) } }),
          },
        },
      },
    },
  },
});
