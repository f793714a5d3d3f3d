import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, type EventObject } from 'xstate';
import type { WebhookRow } from '../../contract/webhooks';
import { webhookEditorMachine, webhookFieldsOf, type SaveWebhookInput } from './webhook-editor.machine';
import type { SaveRequest } from './record-editor.machine';

const ROW: WebhookRow = {
  endpoint_id: 3,
  url: 'https://hooks.example.com/manna',
  description: '',
  events: ['post.published', 'message.received'],
  enabled: true,
  secret: 'whsec_c2VjcmV0',
  created_at: '2026-12-07T09:00:00.000Z',
  version: 2,
  last_status: null,
  last_at: null,
};

function setup() {
  const sent: SaveWebhookInput[] = [];
  let reply: ((e: EventObject) => void) | null = null;
  const focused: string[] = [];
  const actor = createActor(
    webhookEditorMachine.provide({
      actors: {
        save: fromCallback<
          EventObject,
          SaveRequest<WebhookRow, ReturnType<typeof webhookFieldsOf>, SaveWebhookInput>
        >(({ input, sendBack }) => {
          sent.push(input.input);
          reply = sendBack;
        }),
      },
      actions: { focusField: (_, { field }) => void focused.push(field) },
    }),
  ).start();
  return { actor, sent, focused, reply: (e: { type: string; error?: unknown }) => reply!(e as EventObject) };
}

describe('the webhook endpoint editor', () => {
  it('asks for an address and an event, focusing the first that is missing', () => {
    const { actor, focused } = setup();
    actor.send({ type: 'editor.open' });
    actor.send({ type: 'editor.submit' });
    expect(actor.getSnapshot().context.errors).toEqual({ url: 'urlRequired', events: 'eventsRequired' });
    expect(focused).toEqual(['url']);
  });

  it('sends the events as a list, a change with the version it opened; the order they were ticked in is no change', () => {
    const { actor, sent } = setup();
    actor.send({ type: 'editor.open', row: ROW });
    actor.send({ type: 'field.change', field: 'events', value: 'message.received,post.published' });
    expect(actor.getSnapshot().can({ type: 'editor.dismiss' })).toBe(true);
    actor.send({ type: 'editor.dismiss' });
    // the same events in another order: nothing to lose, the dialog closes at once
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    actor.send({ type: 'editor.open', row: ROW });
    actor.send({ type: 'field.change', field: 'enabled', value: false });
    actor.send({ type: 'editor.submit' });
    expect(sent).toEqual([
      {
        body: {
          url: ROW.url,
          description: '',
          events: ['post.published', 'message.received'],
          enabled: false,
        },
        id: 3,
        version: 2,
      },
    ]);
  });

  it("shows the server's refusal of a private address on the address field", () => {
    const { actor, reply, focused } = setup();
    actor.send({ type: 'editor.open' });
    actor.send({ type: 'field.change', field: 'url', value: 'http://192.168.1.20/in' });
    actor.send({ type: 'field.change', field: 'events', value: 'post.published' });
    actor.send({ type: 'editor.submit' });
    reply({
      type: 'save.failed',
      error: Object.assign(new Error('refused'), { status: 400, codes: { url: 'urlPrivate' } }),
    });
    expect(actor.getSnapshot().context.errors).toEqual({ url: 'urlPrivate' });
    expect(focused).toEqual(['url']);
    expect(actor.getSnapshot().context.fields.url).toBe('http://192.168.1.20/in');
  });
});
