import { assign, fromPromise, raise, sendTo, setup } from 'xstate';
import type { WebhookDelivery, WebhookRow } from '../../contract/webhooks';
import { pagedList } from './paged-list.machine';

/**
 * The Webhooks screen (docs/decisions/037-webhooks.md).
 *
 * - `list`: the shared paged list (paged-list.machine.ts) of endpoints; `endpoint.saved` (from the
 *   editor, webhook-editor.machine.ts) puts a saved one in place or first.
 * - `deliveries`: an endpoint's newest deliveries with their attempts, shown under it
 *   (`endpoint.show`): `loading` -> `shown` (read again every `DELIVERIES_REFRESH_MS` while one
 *   still waits, and on `deliveries.refresh`) or `failed` (Retry); `deliveries.close` hides them.
 * - `action`: one at a time, "Send a test event" (`endpoint.test`), "Send again"
 *   (`delivery.resend`), and Delete, asked first (`endpoint.delete` -> `confirmingDelete`). A test
 *   or a resend shows that endpoint's deliveries, which follow the delivery to its end.
 *
 * Effects the screen provides: the `list` (its `loadPage`), actors `loadDeliveries`, `sendTest`,
 * `resend`, `deleteEndpoint`; actions `notifyDone` (a toast with the server's words),
 * `notifyFailed`.
 */

export const WEBHOOK_PAGE_SIZE = 50;
/** While a delivery waits, the shown deliveries are read again this often. */
export const DELIVERIES_REFRESH_MS = 2000;

export const webhooksList = pagedList<WebhookRow>({ keyOf: (row) => row.endpoint_id });

export interface WebhooksContext {
  /** The endpoint whose deliveries are shown (or asked about: delete). */
  shown: WebhookRow | null;
  deliveries: WebhookDelivery[];
  /** The endpoint or delivery an action is about. */
  target: { endpoint: WebhookRow; delivery?: WebhookDelivery } | null;
}

export type WebhooksEvent =
  | { type: 'endpoint.show'; row: WebhookRow }
  | { type: 'deliveries.close' }
  | { type: 'deliveries.refresh' }
  | { type: 'endpoint.test'; row: WebhookRow }
  | { type: 'delivery.resend'; row: WebhookRow; delivery: WebhookDelivery }
  | { type: 'endpoint.delete'; row: WebhookRow }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  /** An endpoint was deleted (raised after the delete): its deliveries, if shown, close. */
  | { type: 'endpoint.removed'; row: WebhookRow }
  | { type: 'endpoint.saved'; row: WebhookRow; created: boolean };

const waiting = (deliveries: WebhookDelivery[]) => deliveries.some((d) => d.status === 'pending');

export const webhooksMachine = setup({
  types: {
    context: {} as WebhooksContext,
    events: {} as WebhooksEvent,
    children: {} as { list: 'list' },
  },
  actors: {
    list: webhooksList,
    loadDeliveries: fromPromise<WebhookDelivery[], { endpointId: number }>(async () => {
      throw new Error('loadDeliveries is provided by the app');
    }),
    sendTest: fromPromise<{ message: string }, { endpointId: number }>(async () => {
      throw new Error('sendTest is provided by the app');
    }),
    resend: fromPromise<{ message: string }, { endpointId: number; deliveryId: number }>(async () => {
      throw new Error('resend is provided by the app');
    }),
    deleteEndpoint: fromPromise<{ message: string }, { endpointId: number }>(async () => {
      throw new Error('deleteEndpoint is provided by the app');
    }),
  },
  delays: { refresh: DELIVERIES_REFRESH_MS },
  actions: {
    show: assign((_, params: { row: WebhookRow }) => ({ shown: params.row, deliveries: [] })),
    hide: assign({ shown: null, deliveries: [] }),
    keepDeliveries: assign({
      deliveries: (_, params: { deliveries: WebhookDelivery[] }) => params.deliveries,
    }),
    setTarget: assign({
      target: (_, params: { endpoint: WebhookRow; delivery?: WebhookDelivery }) => params,
    }),
    clearTarget: assign({ target: null }),
    savedRow: sendTo('list', (_, params: { row: WebhookRow; created: boolean }) => ({
      type: 'row.saved' as const,
      row: params.row,
      absent: params.created ? ('prepend' as const) : ('reload' as const),
    })),
    removedRow: sendTo('list', (_, params: { row: WebhookRow }) => ({
      type: 'row.removed' as const,
      row: params.row,
    })),
    notifyDone: (_, _params: { message: string }) => {},
    notifyFailed: (_, _params: { error: unknown }) => {},
  },
  guards: {
    isShown: ({ context }, params: { row: WebhookRow }) =>
      context.shown?.endpoint_id === params.row.endpoint_id,
    isWaiting: ({ context }) => waiting(context.deliveries),
  },
}).createMachine({
  id: 'webhooks',
  context: { shown: null, deliveries: [], target: null },
  invoke: { id: 'list', src: 'list', input: { pageSize: WEBHOOK_PAGE_SIZE, query: null } },
  type: 'parallel',
  on: {
    'endpoint.saved': {
      actions: { type: 'savedRow', params: ({ event }) => ({ row: event.row, created: event.created }) },
    },
  },
  states: {
    deliveries: {
      initial: 'closed',
      on: {
        'endpoint.show': {
          target: '.loading',
          actions: { type: 'show', params: ({ event }) => ({ row: event.row }) },
        },
        'deliveries.close': { target: '.closed', actions: 'hide' },
        // another endpoint's deliveries stay open
        'endpoint.removed': {
          guard: { type: 'isShown', params: ({ event }) => ({ row: event.row }) },
          target: '.closed',
          actions: 'hide',
        },
      },
      states: {
        closed: {},
        loading: {
          invoke: {
            src: 'loadDeliveries',
            input: ({ context }) => ({ endpointId: context.shown!.endpoint_id }),
            onDone: {
              target: 'shown',
              actions: { type: 'keepDeliveries', params: ({ event }) => ({ deliveries: event.output }) },
            },
            onError: 'failed',
          },
        },
        shown: {
          // a delivery that waits is followed to its end
          after: { refresh: { guard: 'isWaiting', target: 'loading' } },
          on: { 'deliveries.refresh': 'loading' },
        },
        failed: { on: { 'deliveries.refresh': 'loading' } },
      },
    },
    action: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'endpoint.test': {
              target: 'testing',
              actions: { type: 'setTarget', params: ({ event }) => ({ endpoint: event.row }) },
            },
            'delivery.resend': {
              target: 'resending',
              actions: {
                type: 'setTarget',
                params: ({ event }) => ({ endpoint: event.row, delivery: event.delivery }),
              },
            },
            'endpoint.delete': {
              target: 'confirmingDelete',
              actions: { type: 'setTarget', params: ({ event }) => ({ endpoint: event.row }) },
            },
          },
        },
        testing: {
          invoke: {
            src: 'sendTest',
            input: ({ context }) => ({ endpointId: context.target!.endpoint.endpoint_id }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'notifyDone', params: ({ event }) => ({ message: event.output.message }) },
                // its deliveries, shown, follow the test event to its end
                raise(({ context }) => ({ type: 'endpoint.show' as const, row: context.target!.endpoint })),
                'clearTarget',
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'notifyFailed', params: ({ event }) => ({ error: event.error }) },
                'clearTarget',
              ],
            },
          },
        },
        resending: {
          invoke: {
            src: 'resend',
            input: ({ context }) => ({
              endpointId: context.target!.endpoint.endpoint_id,
              deliveryId: context.target!.delivery!.delivery_id,
            }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'notifyDone', params: ({ event }) => ({ message: event.output.message }) },
                raise({ type: 'deliveries.refresh' as const }),
                'clearTarget',
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'notifyFailed', params: ({ event }) => ({ error: event.error }) },
                'clearTarget',
              ],
            },
          },
        },
        confirmingDelete: {
          on: {
            'delete.confirm': 'deleting',
            'delete.cancel': { target: 'idle', actions: 'clearTarget' },
          },
        },
        deleting: {
          invoke: {
            src: 'deleteEndpoint',
            input: ({ context }) => ({ endpointId: context.target!.endpoint.endpoint_id }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'notifyDone', params: ({ event }) => ({ message: event.output.message }) },
                { type: 'removedRow', params: ({ context }) => ({ row: context.target!.endpoint }) },
                raise(({ context }) => ({
                  type: 'endpoint.removed' as const,
                  row: context.target!.endpoint,
                })),
                'clearTarget',
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'notifyFailed', params: ({ event }) => ({ error: event.error }) },
                'clearTarget',
              ],
            },
          },
        },
      },
    },
  },
});
