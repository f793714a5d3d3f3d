import { assign, emit, fromCallback, fromPromise, setup } from 'xstate';
import type { Timeline } from '../../contract/application-timeline';

/**
 * The timeline of one record (docs/decisions/026-application-timeline.md): an application's in its detail modal (what happened to
 * it, and a note box), a contact message's in the inbox (the message, replies, assignments, and a
 * reply box). Oldest first, a text box under it; the screen provides what loading and sending
 * mean for its record, and the longest text it takes (`maxLength`).
 *
 * - `loading` (the `loadTimeline` actor) -> `ready`, or `failed` (Retry: `timeline.retry`).
 * - `ready` runs two regions side by side (and takes `timeline.set`, a timeline another change
 *   answered):
 *   - `list`: `idle`; `timeline.refresh` (the screen sends it after a status change here or
 *     elsewhere) -> `refreshing`, which keeps showing the timeline it has and replaces it when the
 *     new one arrives (a failed refresh keeps the old one);
 *   - `note`: `editing`; `note.change` types; `note.submit` checks the text (`noteEmpty`,
 *     `noteTooLong`, as the server does) -> `saving` (the `saveNote` actor) -> `editing` with the
 *     box emptied and the timeline the server answered, or with the text kept and why it failed
 *     (the server's code, `offline`, `gone` when the application was deleted, `failed`).
 *
 * Effects the screen provides: actors `loadTimeline`, `saveNote` (the timeline, and the record at its
 * new version when the text changed it), `changeEvents` (sends `timeline.refresh` when the record
 * changed elsewhere: a colleague's note, a mail delivered); action `notifyNoteSaved`. A text saved emits `note.saved`
 * with that record, for the screen's list (`actorRef.on`).
 */
export type NoteError = 'noteEmpty' | 'noteTooLong' | 'offline' | 'gone' | 'failed';

/** What sending a text answers: the timeline with it, and the record when the text changed it (a message answered is handled). */
export interface SavedNote {
  timeline: Timeline;
  row?: unknown;
}

export interface TimelineContext {
  recordId: number;
  maxLength: number;
  timeline: Timeline | null;
  draft: string;
  error: NoteError | null;
}

export type TimelineEvent =
  | { type: 'timeline.retry' }
  | { type: 'timeline.refresh' }
  /** A change made beside it answered the timeline (a mail sent to the candidate). */
  | { type: 'timeline.set'; timeline: Timeline }
  | { type: 'note.change'; text: string }
  | { type: 'note.submit' };

/** What is wrong with a text before it is sent (the server checks the cleaned text again). */
export function noteProblem(text: string, maxLength: number): NoteError | null {
  const clean = text.trim();
  if (clean === '') return 'noteEmpty';
  if (Array.from(clean).length > maxLength) return 'noteTooLong';
  return null;
}

/** Why a note was not saved, from the transport's error (an ApiError: its status and codes). */
export function noteError(error: unknown): NoteError {
  const { status, codes } = (error ?? {}) as { status?: number; codes?: Record<string, string> };
  if (codes?.text === 'noteEmpty' || codes?.text === 'noteTooLong') return codes.text;
  if (codes?.text === 'textEmpty') return 'noteEmpty';
  if (codes?.text === 'textTooLong') return 'noteTooLong';
  if (status === 0) return 'offline';
  if (status === 404) return 'gone';
  return 'failed';
}

export const recordTimelineMachine = setup({
  types: {
    context: {} as TimelineContext,
    events: {} as TimelineEvent,
    input: {} as { recordId: number; maxLength: number },
    emitted: {} as { type: 'note.saved'; row?: unknown },
  },
  actors: {
    loadTimeline: fromPromise<Timeline, { recordId: number }>(async () => {
      throw new Error('loadTimeline is provided by the screen');
    }),
    saveNote: fromPromise<SavedNote, { recordId: number; text: string }>(async () => {
      throw new Error('saveNote is provided by the screen');
    }),
    /** Sends timeline.refresh when the record changes elsewhere (none by default). */
    changeEvents: fromCallback<{ type: string }, { recordId: number }>(() => () => {}),
  },
  actions: {
    store: assign({ timeline: (_, params: { timeline: Timeline }) => params.timeline }),
    type: assign({ draft: (_, params: { text: string }) => params.text, error: null }),
    refuse: assign({ error: (_, params: { error: NoteError }) => params.error }),
    saved: assign({
      timeline: (_, params: { timeline: Timeline }) => params.timeline,
      draft: '',
      error: null,
    }),
    notifyNoteSaved: () => {},
    announceSaved: emit((_, params: { row?: unknown }) => ({ type: 'note.saved' as const, row: params.row })),
  },
  guards: {
    hasProblem: ({ context }) => noteProblem(context.draft, context.maxLength) !== null,
  },
}).createMachine({
  id: 'recordTimeline',
  context: ({ input }) => ({
    recordId: input.recordId,
    maxLength: input.maxLength,
    timeline: null,
    draft: '',
    error: null,
  }),
  initial: 'loading',
  // a listener only: should it break, the timeline still loads and refreshes by hand
  invoke: {
    id: 'changeEvents',
    src: 'changeEvents',
    input: ({ context }) => ({ recordId: context.recordId }),
    onError: { actions: [] },
  },
  on: {
    'note.change': { actions: { type: 'type', params: ({ event }) => ({ text: event.text }) } },
  },
  states: {
    loading: {
      invoke: {
        id: 'loadTimeline',
        src: 'loadTimeline',
        input: ({ context }) => ({ recordId: context.recordId }),
        onDone: {
          target: 'ready',
          actions: { type: 'store', params: ({ event }) => ({ timeline: event.output }) },
        },
        onError: 'failed',
      },
    },
    failed: {
      on: { 'timeline.retry': 'loading' },
    },
    ready: {
      type: 'parallel',
      on: {
        'timeline.set': { actions: { type: 'store', params: ({ event }) => ({ timeline: event.timeline }) } },
      },
      states: {
        list: {
          initial: 'idle',
          states: {
            idle: {
              on: { 'timeline.refresh': 'refreshing' },
            },
            refreshing: {
              invoke: {
                id: 'refreshTimeline',
                src: 'loadTimeline',
                input: ({ context }) => ({ recordId: context.recordId }),
                onDone: {
                  target: 'idle',
                  actions: { type: 'store', params: ({ event }) => ({ timeline: event.output }) },
                },
                onError: 'idle',
              },
              // a refresh asked meanwhile starts again, so the newest change is shown
              on: { 'timeline.refresh': { target: 'refreshing', reenter: true } },
            },
          },
        },
        note: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'note.submit': [
                  {
                    guard: 'hasProblem',
                    actions: {
                      type: 'refuse',
                      params: ({ context }) => ({ error: noteProblem(context.draft, context.maxLength)! }),
                    },
                  },
                  { target: 'saving' },
                ],
              },
            },
            saving: {
              invoke: {
                id: 'saveNote',
                src: 'saveNote',
                input: ({ context }) => ({ recordId: context.recordId, text: context.draft }),
                onDone: {
                  target: 'editing',
                  actions: [
                    { type: 'saved', params: ({ event }) => ({ timeline: event.output.timeline }) },
                    'notifyNoteSaved',
                    { type: 'announceSaved', params: ({ event }) => ({ row: event.output.row }) },
                  ],
                },
                onError: {
                  target: 'editing',
                  actions: { type: 'refuse', params: ({ event }) => ({ error: noteError(event.error) }) },
                },
              },
              // the text being saved stays as it is
              on: { 'note.change': {} },
            },
          },
        },
      },
    },
  },
});
