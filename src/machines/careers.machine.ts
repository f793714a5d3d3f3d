import { assign, fromPromise, setup } from 'xstate';
import type { JobOpeningRow } from '../api/contract/jobs';

/**
 * The careers page list (spec section 4, "Careers page"): loading, then the openings, or
 * 'No job openings available at the moment.' for an empty list, or 'Failed to load job openings.'
 * with Retry. The screen supplies `loadOpenings` (GET bind-job-openings) with `.provide()`.
 * Loading starts when the actor starts, which is after mount: the prerendered page shows the
 * loading state, and so does the first client render, so hydration matches.
 * Offline (PWA issue): a good list is kept on the device (`keepOpenings`); when the call fails,
 * the kept list is shown with the time it was saved (`showingKept`) before giving up.
 */
export type CareersEvent = { type: 'list.retry' };

export interface CareersContext {
  openings: JobOpeningRow[];
  /** When the openings shown were saved on this device (ISO 8601); null when they are fresh. */
  savedAt: string | null;
}

/** Openings kept on this device by an earlier visit (src/offline/cache.ts). */
export interface KeptOpenings {
  rows: JobOpeningRow[];
  savedAt: string;
}

export const careersMachine = setup({
  types: {
    context: {} as CareersContext,
    events: {} as CareersEvent,
  },
  actors: {
    loadOpenings: fromPromise<JobOpeningRow[]>(async () => {
      throw new Error('loadOpenings is provided by the app');
    }),
    /** Keeps the openings shown for a visit without network (PWA issue). */
    keepOpenings: fromPromise<void, JobOpeningRow[]>(async () => {}),
    /** The openings kept by an earlier visit, or null. */
    readKeptOpenings: fromPromise<KeptOpenings | null>(async () => null),
  },
  actions: {
    storeOpenings: assign({
      openings: (_, params: { openings: JobOpeningRow[] }) => params.openings,
    }),
    forgetOpenings: assign({ openings: [], savedAt: null }),
    showKeptOpenings: assign({
      openings: (_, kept: KeptOpenings) => kept.rows,
      savedAt: (_, kept: KeptOpenings) => kept.savedAt,
    }),
    /** Side effect for the console (which call failed); the screen shows the spec's text. */
    reportFailure: (_, _params: { error: unknown }) => {},
  },
  guards: {
    hasOpenings: (_, params: { openings: JobOpeningRow[] }) => params.openings.length > 0,
    hasKeptOpenings: (_, kept: KeptOpenings | null) => kept !== null && kept.rows.length > 0,
  },
}).createMachine({
  id: 'careers',
  initial: 'loading',
  context: { openings: [], savedAt: null },
  states: {
    loading: {
      entry: 'forgetOpenings',
      invoke: {
        id: 'loadOpenings',
        src: 'loadOpenings',
        onDone: [
          {
            guard: { type: 'hasOpenings', params: ({ event }) => ({ openings: event.output }) },
            target: 'listed',
            actions: { type: 'storeOpenings', params: ({ event }) => ({ openings: event.output }) },
          },
          { target: 'empty' },
        ],
        onError: {
          target: 'readingKeptOpenings',
          actions: { type: 'reportFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    listed: {
      // Kept for a later visit without network; a failure to keep them changes nothing on screen.
      invoke: {
        id: 'keepOpenings',
        src: 'keepOpenings',
        input: ({ context }) => context.openings,
        onError: { actions: [] },
      },
    },
    /** The call failed: the openings an earlier visit kept on this device, if any. */
    readingKeptOpenings: {
      invoke: {
        id: 'readKeptOpenings',
        src: 'readKeptOpenings',
        onDone: [
          {
            guard: { type: 'hasKeptOpenings', params: ({ event }) => event.output },
            target: 'showingKept',
            actions: { type: 'showKeptOpenings', params: ({ event }) => event.output! },
          },
          { target: 'failed' },
        ],
        onError: { target: 'failed' },
      },
    },
    /** The kept openings, with 'Showing saved copy from {date}' and Retry. */
    showingKept: {
      on: { 'list.retry': 'loading' },
    },
    empty: {},
    failed: {
      on: { 'list.retry': 'loading' },
    },
  },
});
