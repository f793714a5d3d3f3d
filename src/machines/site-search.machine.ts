import { assign, fromPromise, setup } from 'xstate';
import type { Lang } from '../../contract/languages';
import type { SiteSearchAnswer, SiteSearchResult } from '../../contract/site-search';

/**
 * The site's one search (docs/decisions/040-site-search-screens.md), as the header's dialog and
 * the /search page run it: results as the visitor types, the server's when it answers, the copy
 * kept on this device when it cannot be reached.
 *
 * - `idle`: nothing typed (only spaces count as nothing); no results.
 * - `query.change` with words -> `waiting` (a pause of `TYPING_PAUSE_MS` so each key does not ask
 *   the server) -> `searching` (the `search` actor, GET /api/search) -> `showing` the answer.
 *   Typing again in `waiting`, `searching` or `showing` waits again; the answer of an older
 *   query never shows (leaving `searching` stops it).
 * - `searching` that gets no answer (offline, the server down: `isUnreachable`) -> `searchingKept`
 *   (the `searchKept` actor: the index of what this device keeps) -> `showing` with
 *   `fromKept` set, so the screen says the results come from the saved copy; when that fails too,
 *   `failed`, as a server error does (`retry` asks again).
 * - `active.next` / `active.previous` (arrow keys) move through the results shown, wrapping;
 *   -1 is none (the text box keeps focus, Enter submits the query). A new answer resets it.
 * - Started with an answer (the /search page the server rendered), it starts in `showing`;
 *   with words but no answer, in `waiting`.
 */

export const TYPING_PAUSE_MS = 150;

export interface SiteSearchInput {
  lang: Lang;
  q?: string;
  answer?: SiteSearchAnswer | null;
}

export interface SiteSearchContext {
  lang: Lang;
  /** The words as typed. */
  q: string;
  /** The answer shown, null before the first. */
  answer: SiteSearchAnswer | null;
  /** The answer came from the copy kept on this device. */
  fromKept: boolean;
  /** The highlighted result (arrow keys), -1 for none. */
  active: number;
  error: unknown;
}

export type SiteSearchEvent =
  | { type: 'query.change'; q: string }
  | { type: 'active.next' }
  | { type: 'active.previous' }
  | { type: 'retry' };

/** The results shown, in the order the screen lists them (the arrow keys' order). */
export function shownResults(answer: SiteSearchAnswer | null): SiteSearchResult[] {
  return answer ? answer.groups.flatMap((g) => g.results) : [];
}

const blank = (q: string) => q.trim() === '';

export const siteSearchMachine = setup({
  types: {
    context: {} as SiteSearchContext,
    events: {} as SiteSearchEvent,
    input: {} as SiteSearchInput,
  },
  actors: {
    /** The server's answer (GET /api/search?q=&lang=). */
    search: fromPromise<SiteSearchAnswer, { q: string; lang: Lang }>(async () => {
      throw new Error('search is provided by the screen');
    }),
    /** The answer from what this device keeps for offline reading. */
    searchKept: fromPromise<SiteSearchAnswer, { q: string; lang: Lang }>(async () => {
      throw new Error('searchKept is provided by the screen');
    }),
  },
  actions: {
    keepQuery: assign({ q: (_, params: { q: string }) => params.q }),
    forgetAnswer: assign({ answer: null, active: -1, error: null, fromKept: false }),
    showAnswer: assign((_, params: { answer: SiteSearchAnswer; fromKept: boolean }) => ({
      answer: params.answer,
      fromKept: params.fromKept,
      active: -1,
      error: null,
    })),
    keepError: assign({ error: (_, params: { error: unknown }) => params.error }),
    moveActive: assign({
      active: ({ context }, params: { by: 1 | -1 }) => {
        const count = shownResults(context.answer).length;
        if (count === 0) return -1;
        if (context.active === -1) return params.by === 1 ? 0 : count - 1;
        return (context.active + params.by + count) % count;
      },
    }),
    /** Reports a failed search (the spec's logs use console.warn). */
    reportFailure: (_, _params: { error: unknown }) => {},
  },
  guards: {
    isBlank: (_, params: { q: string }) => blank(params.q),
    /** No answer came at all (offline, the server down): ApiError status 0, or a 5xx. */
    isUnreachable: (_, params: { error: unknown }) => {
      const status = (params.error as { status?: unknown } | null)?.status;
      return typeof status === 'number' && (status === 0 || status >= 500);
    },
  },
  delays: { typingPause: TYPING_PAUSE_MS },
}).createMachine({
  id: 'siteSearch',
  context: ({ input }) => ({
    lang: input.lang,
    q: input.q ?? '',
    answer: input.answer ?? null,
    fromKept: false,
    active: -1,
    error: null,
  }),
  initial: 'starting',
  on: {
    'query.change': [
      {
        guard: { type: 'isBlank', params: ({ event }) => ({ q: event.q }) },
        target: '.idle',
        actions: [{ type: 'keepQuery', params: ({ event }) => ({ q: event.q }) }, 'forgetAnswer'],
      },
      {
        target: '.waiting',
        reenter: true,
        actions: { type: 'keepQuery', params: ({ event }) => ({ q: event.q }) },
      },
    ],
  },
  states: {
    starting: {
      always: [
        { guard: ({ context }) => context.answer !== null, target: 'showing' },
        { guard: ({ context }) => !blank(context.q), target: 'waiting' },
        { target: 'idle' },
      ],
    },
    idle: {},
    waiting: {
      after: { typingPause: 'searching' },
    },
    searching: {
      invoke: {
        src: 'search',
        input: ({ context }) => ({ q: context.q.trim(), lang: context.lang }),
        onDone: {
          target: 'showing',
          actions: { type: 'showAnswer', params: ({ event }) => ({ answer: event.output, fromKept: false }) },
        },
        onError: [
          {
            guard: { type: 'isUnreachable', params: ({ event }) => ({ error: event.error }) },
            target: 'searchingKept',
          },
          {
            target: 'failed',
            actions: [
              { type: 'keepError', params: ({ event }) => ({ error: event.error }) },
              { type: 'reportFailure', params: ({ event }) => ({ error: event.error }) },
            ],
          },
        ],
      },
    },
    searchingKept: {
      invoke: {
        src: 'searchKept',
        input: ({ context }) => ({ q: context.q.trim(), lang: context.lang }),
        onDone: {
          target: 'showing',
          actions: { type: 'showAnswer', params: ({ event }) => ({ answer: event.output, fromKept: true }) },
        },
        onError: {
          target: 'failed',
          actions: [
            { type: 'keepError', params: ({ event }) => ({ error: event.error }) },
            { type: 'reportFailure', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
    showing: {
      on: {
        'active.next': { actions: { type: 'moveActive', params: { by: 1 } } },
        'active.previous': { actions: { type: 'moveActive', params: { by: -1 } } },
      },
    },
    failed: {
      on: { retry: 'searching' },
    },
  },
});
