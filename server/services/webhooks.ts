import { randomBytes, randomUUID } from 'node:crypto';
import {
  WEBHOOK_MESSAGES,
  WEBHOOK_TEST_EVENT,
  webhookFormErrors,
  type WebhookBody,
  type WebhookDeliveryStatus,
  type WebhookErrorCode,
  type WebhookEvent,
  type WebhookRow,
} from '../../contract/webhooks';
import { lastChangeOf } from '../db/audit.repo';
import { getPost } from '../db/blog.repo';
import * as repo from '../db/webhooks.repo';
import type { DomainEvent } from '../events/domain-events';
import { HttpError } from '../http-error';
import { open, seal } from '../lib/secret-box';
import { staleVersion } from '../lib/versions';
import { checkEndpointUrl, type AddressRules } from '../webhooks/address';
import { inTransaction, type ServiceContext } from './context';

/**
 * Webhooks (webhooks.manage; docs/decisions/037-webhooks.md): the endpoints staff add, the
 * deliveries of the events they want, "Send again" and "Send a test event". A delivery's body is
 * `{ type, timestamp, data }`; `data` holds the event's own facts (ids, statuses) and, for a post
 * that went public, what its public page shows (title, address): never a person's words, address
 * or files.
 */

/** How many of an endpoint's newest deliveries the screen lists. */
export const DELIVERIES_SHOWN = 50;

export const addressRules = (ctx: Pick<ServiceContext, 'config'>): AddressRules => ({
  httpsOnly: ctx.config.isProduction,
  allowPrivate: ctx.config.WEBHOOKS_ALLOW_PRIVATE,
});

const sealed = (ctx: ServiceContext, secret: string) => seal(ctx.config.SECRET, 'webhook', secret);
const secretOf = (ctx: ServiceContext, stored: string) => open(ctx.config.SECRET, 'webhook', stored) ?? '';

type EndpointRow = Awaited<ReturnType<typeof repo.listEndpoints>>[number];
const rowOf = (
  ctx: ServiceContext,
  r: Omit<EndpointRow, 'last_status' | 'last_at'> & Partial<EndpointRow>,
): WebhookRow => ({
  endpoint_id: r.endpoint_id,
  url: r.url,
  description: r.description,
  events: r.events.split(',').filter(Boolean) as WebhookEvent[],
  enabled: Number(r.enabled) === 1,
  secret: secretOf(ctx, r.secret),
  created_at: r.created_at,
  version: Number(r.version),
  last_status: (r.last_status as WebhookDeliveryStatus | null | undefined) ?? null,
  last_at: r.last_at ?? null,
});

export const list = async (ctx: ServiceContext) =>
  (await repo.listEndpoints(ctx.db)).map((r) => rowOf(ctx, r));

async function endpointOr404(ctx: ServiceContext, id: number) {
  const row = await repo.getEndpoint(ctx.db, id);
  if (!row) throw new HttpError(404, 'No webhook endpoint has this number: it was deleted.');
  return row;
}

/** The form's rules, then where the address points (a private one is refused unless allowed). */
async function checked(ctx: ServiceContext, body: WebhookBody) {
  const values = { url: body.url, description: body.description, events: body.events.join(',') };
  // https:// is asked of a public address only (checkEndpointUrl)
  const codes: Partial<Record<string, WebhookErrorCode>> = webhookFormErrors(values);
  if (!codes.url) {
    const url = await checkEndpointUrl(body.url, addressRules(ctx));
    if (url) codes.url = url;
  }
  const first = Object.values(codes)[0];
  if (first) throw HttpError.fields(WEBHOOK_MESSAGES[first], codes, WEBHOOK_MESSAGES);
  return {
    url: body.url.trim(),
    description: body.description.trim(),
    events: [...new Set(body.events)].join(','),
    enabled: body.enabled ? 1 : 0,
  };
}

/** A new endpoint with its own signing secret; audited. */
export async function create(ctx: ServiceContext, body: WebhookBody) {
  const fields = await checked(ctx, body);
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const id = await inTransaction(ctx, async (c) => {
    const endpointId = await repo.insertEndpoint(c.trx, {
      ...fields,
      secret: sealed(ctx, secret),
      created_at: c.at.toISOString(),
    });
    await c.audit({ action: 'create', entity: 'webhook', entityId: endpointId, detail: { url: fields.url } });
    return endpointId;
  });
  return { message: 'The endpoint was added.', row: rowOf(ctx, await endpointOr404(ctx, id)) };
}

/** Changes an endpoint at the version it was read at (409 with it as it is now); audited. */
export async function update(ctx: ServiceContext, id: number, version: number, body: WebhookBody) {
  const fields = await checked(ctx, body);
  await endpointOr404(ctx, id);
  const saved = await inTransaction(ctx, async (c) => {
    if (!(await repo.updateEndpoint(c.trx, id, version, fields))) return false;
    await c.audit({ action: 'update', entity: 'webhook', entityId: id, detail: { url: fields.url } });
    return true;
  });
  const now = await endpointOr404(ctx, id);
  if (!saved) throw staleVersion(rowOf(ctx, now), await lastChangeOf(ctx.db, 'webhook', id));
  return { message: 'The endpoint was saved.', row: rowOf(ctx, now) };
}

export async function remove(ctx: ServiceContext, id: number) {
  await inTransaction(ctx, async (c) => {
    if (!(await repo.deleteEndpoint(c.trx, id)))
      throw new HttpError(404, 'No webhook endpoint has this number: it was deleted.');
    await c.audit({ action: 'delete', entity: 'webhook', entityId: id });
  });
  return { message: 'The endpoint was deleted; its deliveries with it.' };
}

export async function deliveries(ctx: ServiceContext, id: number) {
  await endpointOr404(ctx, id);
  return repo.listDeliveries(ctx.db, id, DELIVERIES_SHOWN);
}

/** A delivery's body: the Standard Webhooks shape. */
const bodyOf = (type: string, at: Date, data: Record<string, unknown>) =>
  JSON.stringify({ type, timestamp: at.toISOString(), data });

const newMsgId = () => `msg_${randomUUID().replace(/-/g, '')}`;

/** "Send a test event": one delivery of `webhook.test` to this endpoint, whatever it wants. */
export async function sendTest(ctx: ServiceContext, id: number) {
  await endpointOr404(ctx, id);
  const at = ctx.now();
  await repo.queueDelivery(
    ctx.db,
    {
      endpoint_id: id,
      msg_id: newMsgId(),
      event_type: WEBHOOK_TEST_EVENT,
      payload: bodyOf(WEBHOOK_TEST_EVENT, at, { endpoint_id: id, message: 'A test event from Manna.' }),
    },
    at,
  );
  return { message: 'A test event is on its way.' };
}

/** "Send again": a delivery back in line at once, with the same webhook-id. */
export async function resend(ctx: ServiceContext, id: number, deliveryId: number) {
  if (!(await repo.resendDelivery(ctx.db, id, deliveryId, ctx.now())))
    throw new HttpError(404, 'No finished delivery of this endpoint has this number.');
  return { message: 'The delivery is being sent again.' };
}

/** What a delivery says of an event: its own facts, and what a public page shows of a post. */
async function dataOf(ctx: ServiceContext, event: DomainEvent): Promise<Record<string, unknown>> {
  const { type: _type, ...facts } = event;
  if (event.type === 'post.published') {
    const post = await getPost(ctx.db, event.blog_id);
    if (post) return { ...facts, title: post.title, url: `${ctx.config.PUBLIC_URL}/blog/${event.slug}` };
  }
  return facts;
}

/**
 * Queues one delivery of `event` for each enabled endpoint that wants it (the listener of
 * events/listeners.ts calls this after the change committed). Answers how many were queued.
 */
export async function queueEvent(ctx: ServiceContext, event: DomainEvent): Promise<number> {
  const endpoints = await repo.endpointsFor(ctx.db, event.type);
  if (endpoints.length === 0) return 0;
  const at = ctx.now();
  const payload = bodyOf(event.type, at, await dataOf(ctx, event));
  await ctx.db.transaction().execute(async (trx) => {
    for (const endpoint_id of endpoints)
      await repo.queueDelivery(trx, { endpoint_id, msg_id: newMsgId(), event_type: event.type, payload }, at);
  });
  return endpoints.length;
}
