import { assign, fromPromise, setup } from 'xstate';
import type { RevisionDetail, RevisionEntity, RevisionRow } from '../../contract/revisions';
import { conflictIn } from './record-editor.machine';

/**
 * The History view of an editor (blog post, job opening; docs/decisions/022-versions-and-conflicts.md): the record's revisions, what
 * one changed beside the one before it, and "Restore this version".
 *
 * - `closed` -> `loading` on `history.open` (the record and the version the editor shows) ->
 *   `listing`, or `failed` (Retry loads again).
 * - `listing` -> `reading` on `revision.select` -> `showing` (the revision's fields and the ones
 *   before it; the screen draws a word diff) or back to `listing` with `notifyFailed`.
 * - `showing` -> `restoring` on `revision.restore`: the restore is based on the editor's version;
 *   success closes the view and tells the screen the record as it is now (`notifyRestored`); a
 *   record changed meanwhile (409) shows the list again with the new version (`notifyOvertaken`).
 * - `history.close` (Back to editing) from any state but `restoring`.
 */

export interface HistoryRecord {
  entity: RevisionEntity;
  recordId: number;
  version: number;
}

export interface RevisionHistoryContext {
  record: HistoryRecord | null;
  revisions: RevisionRow[];
  selected: RevisionDetail | null;
}

export type RevisionHistoryEvent =
  | { type: 'history.open'; record: HistoryRecord }
  | { type: 'history.close' }
  | { type: 'history.retry' }
  | { type: 'revision.select'; revisionId: number }
  | { type: 'revision.back' }
  | { type: 'revision.restore' };

const EMPTY: RevisionHistoryContext = { record: null, revisions: [], selected: null };

export const revisionHistoryMachine = setup({
  types: {
    context: {} as RevisionHistoryContext,
    events: {} as RevisionHistoryEvent,
  },
  actors: {
    loadRevisions: fromPromise<RevisionRow[], HistoryRecord>(async () => {
      throw new Error('loadRevisions is provided by the app');
    }),
    loadRevision: fromPromise<RevisionDetail, HistoryRecord & { revisionId: number }>(async () => {
      throw new Error('loadRevision is provided by the app');
    }),
    /** Answers the record as it is after the restore. */
    restoreRevision: fromPromise<unknown, HistoryRecord & { revisionId: number }>(async () => {
      throw new Error('restoreRevision is provided by the app');
    }),
  },
  actions: {
    openFor: assign((_, params: { record: HistoryRecord }) => ({ ...EMPTY, record: params.record })),
    reset: assign(() => ({ ...EMPTY })),
    setRevisions: assign({ revisions: (_, params: { revisions: RevisionRow[] }) => params.revisions }),
    select: assign({ selected: (_, params: { detail: RevisionDetail }) => params.detail }),
    unselect: assign({ selected: null }),
    /** Someone saved the record meanwhile: the history goes on from their version. */
    takeVersion: assign({
      record: ({ context }, params: { version: number }) =>
        context.record && { ...context.record, version: params.version },
      selected: null,
    }),
    notifyRestored: (_, _params: { row: unknown; revision: RevisionRow }) => {},
    notifyFailed: (_, _params: { error: unknown }) => {},
    notifyOvertaken: (_, _params: { changedBy: string | null }) => {},
  },
  guards: {
    isConflict: (_, params: { error: unknown }) => conflictIn(params.error) !== null,
  },
}).createMachine({
  id: 'revisionHistory',
  context: EMPTY,
  initial: 'closed',
  states: {
    closed: {
      on: {
        'history.open': {
          target: 'loading',
          actions: { type: 'openFor', params: ({ event }) => ({ record: event.record }) },
        },
      },
    },
    loading: {
      invoke: {
        id: 'loadRevisions',
        src: 'loadRevisions',
        input: ({ context }) => context.record!,
        onDone: {
          target: 'listing',
          actions: { type: 'setRevisions', params: ({ event }) => ({ revisions: event.output }) },
        },
        onError: 'failed',
      },
      on: { 'history.close': { target: 'closed', actions: 'reset' } },
    },
    failed: {
      on: {
        'history.retry': 'loading',
        'history.close': { target: 'closed', actions: 'reset' },
      },
    },
    listing: {
      on: {
        'revision.select': 'reading',
        'history.close': { target: 'closed', actions: 'reset' },
      },
    },
    reading: {
      invoke: {
        id: 'loadRevision',
        src: 'loadRevision',
        input: ({ context, event }) => ({
          ...context.record!,
          revisionId: (event as Extract<RevisionHistoryEvent, { type: 'revision.select' }>).revisionId,
        }),
        onDone: {
          target: 'showing',
          actions: { type: 'select', params: ({ event }) => ({ detail: event.output }) },
        },
        onError: {
          target: 'listing',
          actions: { type: 'notifyFailed', params: ({ event }) => ({ error: event.error }) },
        },
      },
      on: { 'history.close': { target: 'closed', actions: 'reset' } },
    },
    showing: {
      on: {
        'revision.select': 'reading',
        'revision.back': { target: 'listing', actions: 'unselect' },
        'revision.restore': 'restoring',
        'history.close': { target: 'closed', actions: 'reset' },
      },
    },
    restoring: {
      invoke: {
        id: 'restoreRevision',
        src: 'restoreRevision',
        input: ({ context }) => ({ ...context.record!, revisionId: context.selected!.revision.revision_id }),
        onDone: {
          target: 'closed',
          actions: [
            {
              type: 'notifyRestored',
              params: ({ context, event }) => ({ row: event.output, revision: context.selected!.revision }),
            },
            'reset',
          ],
        },
        onError: [
          {
            // saved by someone else since the editor opened: the list again, on their version
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'loading',
            actions: [
              {
                type: 'takeVersion',
                params: ({ event }) => ({
                  version: conflictIn<{ version?: number }>(event.error)!.current.version ?? 1,
                }),
              },
              {
                type: 'notifyOvertaken',
                params: ({ event }) => ({ changedBy: conflictIn(event.error)!.changedBy }),
              },
            ],
          },
          {
            target: 'showing',
            actions: { type: 'notifyFailed', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
  },
});
