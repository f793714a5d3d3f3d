import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { WebhookDelivery, WebhookRow } from '../../contract/webhooks';
import { DELIVERIES_REFRESH_MS, webhooksList, webhooksMachine } from './webhooks.machine';

const ROW: WebhookRow = {
  endpoint_id: 3,
  url: 'https://hooks.example.com/manna',
  description: 'Zapier',
  events: ['post.published'],
  enabled: true,
  secret: 'whsec_c2VjcmV0',
  created_at: '2026-12-07T09:00:00.000Z',
  version: 1,
  last_status: null,
  last_at: null,
};
const delivery = (status: WebhookDelivery['status'], id = 1): WebhookDelivery => ({
  delivery_id: id,
  msg_id: `msg_${id}`,
  event_type: 'webhook.test',
  status,
  attempts:
    status === 'pending'
      ? []
      : [{ at: '2026-12-07T09:01:00.000Z', status_code: 200, error: null, duration_ms: 12 }],
  next_attempt_at: status === 'pending' ? '2026-12-07T09:01:00.000Z' : null,
  created_at: '2026-12-07T09:01:00.000Z',
});

/** The screen with its effects recorded and the server's deliveries answered by `answers`. */
function setup(answers: WebhookDelivery[][]) {
  const calls = { loads: 0, tests: [] as number[], resends: [] as number[], deleted: [] as number[] };
  const done: string[] = [];
  const failed: unknown[] = [];
  const actor = createActor(
    webhooksMachine.provide({
      actors: {
        list: webhooksList.provide({ actors: { loadPage: fromPromise(async () => [ROW]) } }),
        loadDeliveries: fromPromise(async () => answers[Math.min(calls.loads++, answers.length - 1)]!),
        sendTest: fromPromise(async ({ input }) => {
          calls.tests.push(input.endpointId);
          return { message: 'A test event is on its way.' };
        }),
        resend: fromPromise(async ({ input }) => {
          calls.resends.push(input.deliveryId);
          return { message: 'The delivery is being sent again.' };
        }),
        deleteEndpoint: fromPromise(async ({ input }) => {
          calls.deleted.push(input.endpointId);
          return { message: 'The endpoint was deleted.' };
        }),
      },
      actions: {
        notifyDone: (_, { message }) => void done.push(message),
        notifyFailed: (_, { error }) => void failed.push(error),
      },
    }),
  ).start();
  return { actor, calls, done, failed };
}

describe('the Webhooks screen', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("a test event shows the endpoint's deliveries and follows the waiting one until it is sent", async () => {
    const { actor, calls, done } = setup([[delivery('pending')], [delivery('pending')], [delivery('sent')]]);
    actor.send({ type: 'endpoint.test', row: ROW });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.tests).toEqual([3]);
    expect(done).toEqual(['A test event is on its way.']);
    expect(actor.getSnapshot().context.shown?.endpoint_id).toBe(3);
    expect(actor.getSnapshot().context.deliveries[0]?.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(DELIVERIES_REFRESH_MS * 2);
    expect(actor.getSnapshot().context.deliveries[0]?.status).toBe('sent');
    const loads = calls.loads;
    // nothing waits any more: no more reads
    await vi.advanceTimersByTimeAsync(DELIVERIES_REFRESH_MS * 5);
    expect(calls.loads).toBe(loads);
  });

  it('"Send again" reads the deliveries again; Delete is asked first and takes the endpoint off the list', async () => {
    const { actor, calls } = setup([[delivery('failed', 9)]]);
    actor.send({ type: 'endpoint.show', row: ROW });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'delivery.resend', row: ROW, delivery: delivery('failed', 9) });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.resends).toEqual([9]);
    expect(calls.loads).toBe(2);
    actor.send({ type: 'endpoint.delete', row: ROW });
    expect(actor.getSnapshot().matches({ action: 'confirmingDelete' })).toBe(true);
    actor.send({ type: 'delete.cancel' });
    expect(calls.deleted).toEqual([]);
    actor.send({ type: 'endpoint.delete', row: ROW });
    actor.send({ type: 'delete.confirm' });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.deleted).toEqual([3]);
    expect(actor.getSnapshot().matches({ deliveries: 'closed' })).toBe(true);
  });

  it("deleting an endpoint leaves another endpoint's open deliveries open", async () => {
    const other: WebhookRow = { ...ROW, endpoint_id: 4, url: 'https://hooks.example.com/other' };
    const { actor, calls } = setup([[delivery('sent', 5)]]);
    actor.send({ type: 'endpoint.show', row: other });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'endpoint.delete', row: ROW });
    actor.send({ type: 'delete.confirm' });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.deleted).toEqual([3]);
    expect(actor.getSnapshot().matches({ deliveries: 'shown' })).toBe(true);
    expect(actor.getSnapshot().context.shown?.endpoint_id).toBe(4);
    expect(actor.getSnapshot().context.deliveries.map((d) => d.delivery_id)).toEqual([5]);
  });

  it('keeps one action at a time, and says when one failed', async () => {
    const { actor, failed } = setup([[]]);
    const broken = createActor(
      webhooksMachine.provide({
        actors: {
          list: webhooksList.provide({ actors: { loadPage: fromPromise(async () => [ROW]) } }),
          sendTest: fromPromise<{ message: string }, { endpointId: number }>(async () => {
            throw new Error('down');
          }),
        },
        actions: { notifyFailed: (_, { error }) => void failed.push(error) },
      }),
    ).start();
    broken.send({ type: 'endpoint.test', row: ROW });
    expect(broken.getSnapshot().can({ type: 'endpoint.delete', row: ROW })).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(failed).toHaveLength(1);
    expect(broken.getSnapshot().matches({ action: 'idle' })).toBe(true);
    actor.stop();
  });
});
