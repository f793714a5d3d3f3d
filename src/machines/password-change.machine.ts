import { assign, fromPromise, setup } from 'xstate';
import type { ChangePasswordBody, SessionUser } from '../../contract/auth';

/**
 * A user changes their own password: the form checks that both new entries match, the server
 * checks the current password and the rules (12-128 characters, not common) and answers the
 * field's message, which the form shows. Effects: `changePassword`, `notifyChanged`.
 */
export const PASSWORD_MISMATCH = 'The new passwords do not match.';

export const passwordChangeMachine = setup({
  types: {
    context: {} as { errors: Record<string, string>; done: boolean },
    events: {} as { type: 'form.submit'; current: string; next: string; repeat: string },
  },
  actors: {
    changePassword: fromPromise<SessionUser, ChangePasswordBody>(async () => {
      throw new Error('changePassword is provided by the app');
    }),
  },
  actions: {
    setErrors: assign({ errors: (_, p: { errors: Record<string, string> }) => p.errors }),
    clearErrors: assign({ errors: {} }),
    markDone: assign({ done: true }),
    notifyChanged: (_, _p: { user: SessionUser }) => {},
  },
  guards: {
    repeatMatches: ({ event }) => event.type === 'form.submit' && event.next === event.repeat,
  },
}).createMachine({
  id: 'passwordChange',
  initial: 'editing',
  context: { errors: {}, done: false },
  states: {
    editing: {
      on: {
        'form.submit': [
          { guard: 'repeatMatches', target: 'saving' },
          { actions: { type: 'setErrors', params: { errors: { repeat: PASSWORD_MISMATCH } } } },
        ],
      },
    },
    saving: {
      entry: 'clearErrors',
      invoke: {
        id: 'changePassword',
        src: 'changePassword',
        input: ({ event }) => {
          const e = event as { current: string; next: string };
          return { current_password: e.current, new_password: e.next };
        },
        onDone: {
          target: 'editing',
          actions: ['markDone', { type: 'notifyChanged', params: ({ event }) => ({ user: event.output }) }],
        },
        onError: {
          target: 'editing',
          actions: {
            type: 'setErrors',
            params: ({ event }) => {
              const e = event.error as { errors?: Record<string, string>; message?: string; status?: number };
              const errors =
                e?.errors && Object.keys(e.errors).length
                  ? e.errors
                  : {
                      form:
                        e?.status === 0 || !e?.message
                          ? 'Could not save the password. Please try again.'
                          : e.message,
                    };
              return { errors };
            },
          },
        },
      },
    },
  },
});
