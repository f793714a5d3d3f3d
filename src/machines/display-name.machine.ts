import { assign, fromPromise, setup } from 'xstate';
import { DISPLAY_NAME_MAX } from '../../contract/auth';

/**
 * "Your name on posts" on Your account (docs/decisions/025-blog-publishing.md): the name readers see on the posts a person
 * writes, chosen by that person ('' for none: their posts show no author).
 *
 * - `editing`: `name.change` holds what is typed; `name.save` checks it (at most
 *   DISPLAY_NAME_MAX characters: `tooLong` shown, nothing sent) and goes to `saving`.
 * - `saving` (the `saveName` actor): done -> `editing` with the name as stored (`notifySaved`);
 *   failed -> `editing` with what was typed kept (`notifyFailed`).
 */
export interface DisplayNameContext {
  /** What the field holds. */
  name: string;
  /** The name as stored. */
  saved: string;
  error: 'tooLong' | null;
}

export type DisplayNameEvent = { type: 'name.change'; name: string } | { type: 'name.save' };

export const displayNameMachine = setup({
  types: {
    context: {} as DisplayNameContext,
    events: {} as DisplayNameEvent,
    input: {} as { name: string } | undefined,
  },
  actors: {
    saveName: fromPromise<{ display_name: string }, { name: string }>(async () => {
      throw new Error('saveName is provided by the screen');
    }),
  },
  actions: {
    type: assign({ name: (_, params: { name: string }) => params.name, error: null }),
    keepSaved: assign((_, params: { name: string }) => ({
      name: params.name,
      saved: params.name,
      error: null,
    })),
    showTooLong: assign({ error: 'tooLong' as const }),
    notifySaved: (_, _params: { name: string }) => {},
    notifyFailed: (_, _params: { error: unknown }) => {},
  },
  guards: {
    isTooLong: ({ context }) => Array.from(context.name.trim()).length > DISPLAY_NAME_MAX,
  },
}).createMachine({
  id: 'displayName',
  context: ({ input }) => ({ name: input?.name ?? '', saved: input?.name ?? '', error: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'name.change': { actions: { type: 'type', params: ({ event }) => ({ name: event.name }) } },
        'name.save': [{ guard: 'isTooLong', actions: 'showTooLong' }, { target: 'saving' }],
      },
    },
    saving: {
      invoke: {
        id: 'saveName',
        src: 'saveName',
        input: ({ context }) => ({ name: context.name }),
        onDone: {
          target: 'editing',
          actions: [
            { type: 'keepSaved', params: ({ event }) => ({ name: event.output.display_name }) },
            { type: 'notifySaved', params: ({ event }) => ({ name: event.output.display_name }) },
          ],
        },
        onError: {
          target: 'editing',
          actions: { type: 'notifyFailed', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
  },
});
