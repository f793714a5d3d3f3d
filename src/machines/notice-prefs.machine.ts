import { assign, fromPromise, setup } from 'xstate';
import type { NoticeChoice, NoticePrefs, NoticePrefsBody } from '../../contract/mail';
import { conflictIn } from './record-editor.machine';

/**
 * Email notices of the signed-in user (the password screen): loads their choices, lets them pick
 * one mail each, a daily digest or none for each kind their role may read, and saves. A kind they
 * may not read is null and not offered.
 *
 * The choices carry a version (docs/decisions/022): a save says the one it is based on; when the
 * same person changed them meanwhile in another tab, the screen shows the choices as they are now
 * and says so (`notifyOvertaken`), and nothing is saved over them.
 *
 * Effects the screen provides: actors `loadPrefs`, `savePrefs`; actions `notifySaved`,
 * `notifyFailed`, `notifyOvertaken`.
 */
export type NoticeKind = 'applications' | 'messages';

export interface NoticePrefsContext {
  saved: NoticePrefs;
  draft: NoticePrefs;
}

export type NoticePrefsEvent =
  | { type: 'choice.change'; kind: NoticeKind; choice: NoticeChoice }
  | { type: 'prefs.save' }
  | { type: 'list.retry' };

const NONE: NoticePrefs = { applications: null, messages: null };

export const noticePrefsMachine = setup({
  types: { context: {} as NoticePrefsContext, events: {} as NoticePrefsEvent },
  actors: {
    loadPrefs: fromPromise<NoticePrefs>(async () => {
      throw new Error('loadPrefs is provided by the app');
    }),
    savePrefs: fromPromise<NoticePrefs, NoticePrefsBody & { version: number }>(async () => {
      throw new Error('savePrefs is provided by the app');
    }),
  },
  guards: {
    isConflict: (_, params: { error: unknown }) => conflictIn(params.error) !== null,
  },
  actions: {
    store: assign((_, p: { prefs: NoticePrefs }) => ({ saved: p.prefs, draft: p.prefs })),
    choose: assign({
      draft: ({ context }, p: { kind: NoticeKind; choice: NoticeChoice }) =>
        context.draft[p.kind] === null ? context.draft : { ...context.draft, [p.kind]: p.choice },
    }),
    notifySaved: () => {},
    notifyFailed: (_, _p: { error: unknown }) => {},
    /** The choices changed meanwhile (another tab): the screen shows them as they are now. */
    notifyOvertaken: (_, _p: { changedBy: string | null }) => {},
  },
}).createMachine({
  id: 'noticePrefs',
  initial: 'loading',
  context: { saved: NONE, draft: NONE },
  states: {
    loading: {
      invoke: {
        src: 'loadPrefs',
        onDone: {
          target: 'ready',
          actions: { type: 'store', params: ({ event }) => ({ prefs: event.output }) },
        },
        onError: 'failed',
      },
    },
    failed: { on: { 'list.retry': 'loading' } },
    ready: {
      on: {
        'choice.change': {
          actions: { type: 'choose', params: ({ event }) => ({ kind: event.kind, choice: event.choice }) },
        },
        'prefs.save': 'saving',
      },
    },
    saving: {
      invoke: {
        src: 'savePrefs',
        input: ({ context }) => ({
          ...(context.draft.applications ? { applications: context.draft.applications } : {}),
          ...(context.draft.messages ? { messages: context.draft.messages } : {}),
          version: context.saved.version ?? 1,
        }),
        onDone: {
          target: 'ready',
          actions: [{ type: 'store', params: ({ event }) => ({ prefs: event.output }) }, 'notifySaved'],
        },
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'ready',
            actions: [
              {
                type: 'store',
                params: ({ event }) => ({ prefs: conflictIn<NoticePrefs>(event.error)!.current }),
              },
              {
                type: 'notifyOvertaken',
                params: ({ event }) => ({ changedBy: conflictIn<NoticePrefs>(event.error)!.changedBy }),
              },
            ],
          },
          {
            target: 'ready',
            actions: { type: 'notifyFailed', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
  },
});
