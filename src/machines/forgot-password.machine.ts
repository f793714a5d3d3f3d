import { assign, fromPromise, setup } from 'xstate';
import type { ForgotPasswordBody, ForgotPasswordStatus } from '../../contract/mail';
import { setupErrorsOf } from './first-run.machine';

/**
 * "Forgot password?" on the sign-in page: asks whether the site can mail a reset link; when it
 * cannot (no SMTP_URL), the page says to ask an administrator. Otherwise the person gives their
 * email and the server answers the same whether or not it has an account: the page then says to
 * look in the mailbox. A refusal (too many requests, an unreachable server) keeps the email typed.
 *
 * Effects the screen provides: `fetchStatus`, `requestLink`.
 */
export const FORGOT_EMAIL_REQUIRED = 'Enter the email address of your account.';

export type ForgotPasswordEvent = { type: 'form.submit'; email: string } | { type: 'form.again' };

export const forgotPasswordMachine = setup({
  types: {
    context: {} as { errors: Record<string, string>; email: string },
    events: {} as ForgotPasswordEvent,
  },
  actors: {
    fetchStatus: fromPromise<ForgotPasswordStatus>(async () => {
      throw new Error('fetchStatus is provided by the app');
    }),
    requestLink: fromPromise<unknown, ForgotPasswordBody>(async () => {
      throw new Error('requestLink is provided by the app');
    }),
  },
  actions: {
    setErrors: assign({ errors: (_, p: { errors: Record<string, string> }) => p.errors }),
    clearErrors: assign({ errors: {} }),
    keepEmail: assign({ email: (_, p: { email: string }) => p.email.trim() }),
  },
  guards: {
    isAvailable: (_, p: { status: ForgotPasswordStatus }) => p.status.available,
    hasEmail: ({ event }) => event.type === 'form.submit' && event.email.trim() !== '',
  },
}).createMachine({
  id: 'forgotPassword',
  initial: 'checking',
  context: { errors: {}, email: '' },
  states: {
    checking: {
      invoke: {
        src: 'fetchStatus',
        onDone: [
          {
            guard: { type: 'isAvailable', params: ({ event }) => ({ status: event.output }) },
            target: 'editing',
          },
          { target: 'unavailable' },
        ],
        // the form says so when it is used
        onError: 'editing',
      },
    },
    unavailable: {},
    editing: {
      on: {
        'form.submit': [
          {
            guard: 'hasEmail',
            target: 'sending',
            actions: { type: 'keepEmail', params: ({ event }) => ({ email: event.email }) },
          },
          { actions: { type: 'setErrors', params: { errors: { email: FORGOT_EMAIL_REQUIRED } } } },
        ],
      },
    },
    sending: {
      entry: 'clearErrors',
      invoke: {
        src: 'requestLink',
        input: ({ context }) => ({ email: context.email }),
        onDone: 'sent',
        onError: [
          // mail was turned off meanwhile: the same advice as before
          {
            guard: ({ event }) => (event.error as { status?: number })?.status === 409,
            target: 'unavailable',
          },
          {
            target: 'editing',
            actions: { type: 'setErrors', params: ({ event }) => ({ errors: setupErrorsOf(event.error) }) },
          },
        ],
      },
    },
    sent: {
      on: { 'form.again': 'editing' },
    },
  },
});
