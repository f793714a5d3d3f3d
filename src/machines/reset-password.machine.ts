import { assign, fromPromise, setup } from 'xstate';
import type { ResetPasswordBody } from '../../contract/mail';
import { setupErrorsOf } from './first-run.machine';

/**
 * The page a reset or invitation link opens: the new password twice (they must match here); the
 * server checks the link (once, in time) and the password rules and answers the field's message,
 * or a form message for a link that expired or was used. Done, the page leads to the sign-in.
 *
 * Effects the screen provides: `resetPassword`.
 */
export const RESET_PASSWORD_MISMATCH = 'The passwords do not match.';

export type ResetPasswordEvent = { type: 'form.submit'; password: string; repeat: string };

export const resetPasswordMachine = setup({
  types: {
    context: {} as { token: string; errors: Record<string, string> },
    events: {} as ResetPasswordEvent,
    input: {} as { token: string },
  },
  actors: {
    resetPassword: fromPromise<unknown, ResetPasswordBody>(async () => {
      throw new Error('resetPassword is provided by the app');
    }),
  },
  actions: {
    setErrors: assign({ errors: (_, p: { errors: Record<string, string> }) => p.errors }),
    clearErrors: assign({ errors: {} }),
  },
  guards: {
    repeatMatches: ({ event }) => event.password === event.repeat,
  },
}).createMachine({
  id: 'resetPassword',
  initial: 'editing',
  context: ({ input }) => ({ token: input.token, errors: {} }),
  states: {
    editing: {
      on: {
        'form.submit': [
          { guard: 'repeatMatches', target: 'saving' },
          { actions: { type: 'setErrors', params: { errors: { repeat: RESET_PASSWORD_MISMATCH } } } },
        ],
      },
    },
    saving: {
      entry: 'clearErrors',
      invoke: {
        src: 'resetPassword',
        input: ({ context, event }) => ({
          token: context.token,
          password: (event as ResetPasswordEvent).password,
        }),
        onDone: 'done',
        onError: {
          target: 'editing',
          actions: { type: 'setErrors', params: ({ event }) => ({ errors: setupErrorsOf(event.error) }) },
        },
      },
    },
    done: { type: 'final' },
  },
});
