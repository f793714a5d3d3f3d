import type { Kysely } from 'kysely';
import type { WebhookAttempt, WebhookDelivery, WebhookDeliveryStatus } from '../../contract/webhooks';
import { dialectOf } from './database';
import type { Database } from './schema';
import type { WebhookEndpointTable } from './webhooks.schema';

/**
 * Webhook endpoints, their deliveries and attempts (migration 2950). Plain functions taking `db`
 * first. Deliveries are a durable queue like the mail outbox (db/mail.repo.ts): a process leases a
 * due delivery, sends it and records the attempt.
 */

type Db = Kysely<Database>;

export type EndpointRecord = Omit<
  WebhookEndpointTable,
  'endpoint_id' | 'description' | 'enabled' | 'version'
> & {
  endpoint_id: number;
  description: string;
  enabled: number;
  version: number;
};

export async function listEndpoints(db: Db) {
  return db
    .selectFrom('webhook_endpoint as e')
    .selectAll('e')
    .select((eb) => [
      eb
        .selectFrom('webhook_delivery as d')
        .select('d.status')
        .whereRef('d.endpoint_id', '=', 'e.endpoint_id')
        .orderBy('d.delivery_id', 'desc')
        .limit(1)
        .as('last_status'),
      eb
        .selectFrom('webhook_delivery as d')
        .select('d.created_at')
        .whereRef('d.endpoint_id', '=', 'e.endpoint_id')
        .orderBy('d.delivery_id', 'desc')
        .limit(1)
        .as('last_at'),
    ])
    .orderBy('e.endpoint_id')
    .execute();
}

export const getEndpoint = (db: Db, id: number) =>
  db.selectFrom('webhook_endpoint').selectAll().where('endpoint_id', '=', id).executeTakeFirst();

export async function insertEndpoint(
  db: Db,
  row: Pick<WebhookEndpointTable, 'url' | 'events' | 'secret' | 'created_at'> & {
    description: string;
    enabled: number;
  },
): Promise<number> {
  const { endpoint_id } = await db
    .insertInto('webhook_endpoint')
    .values(row)
    .returning('endpoint_id')
    .executeTakeFirstOrThrow();
  return endpoint_id;
}

/** Changes an endpoint at the version it was read at; false when it is gone or changed meanwhile. */
export async function updateEndpoint(
  db: Db,
  id: number,
  version: number,
  fields: { url: string; description: string; events: string; enabled: number },
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoint')
    .set((eb) => ({ ...fields, version: eb('version', '+', 1) }))
    .where('endpoint_id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteEndpoint(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoint').where('endpoint_id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** The enabled endpoints that want `type`. */
export async function endpointsFor(db: Db, type: string) {
  const rows = await db
    .selectFrom('webhook_endpoint')
    .select(['endpoint_id', 'events'])
    .where('enabled', '=', 1)
    .execute();
  return rows.filter((r) => r.events.split(',').includes(type)).map((r) => r.endpoint_id);
}

export async function queueDelivery(
  db: Db,
  d: { endpoint_id: number; msg_id: string; event_type: string; payload: string },
  now: Date,
): Promise<number> {
  const at = now.toISOString();
  const { delivery_id } = await db
    .insertInto('webhook_delivery')
    .values({ ...d, next_attempt_at: at, created_at: at })
    .returning('delivery_id')
    .executeTakeFirstOrThrow();
  return delivery_id;
}

/**
 * Leases up to `limit` pending deliveries that are due and that nobody holds, for `leaseMs` (one
 * conditional UPDATE, as the mail outbox: PostgreSQL skips rows another transaction is leasing).
 */
export async function claimDueDeliveries(
  db: Db,
  o: { holder: string; now: Date; leaseMs: number; limit: number },
) {
  const now = o.now.toISOString();
  let due = db
    .selectFrom('webhook_delivery')
    .select('delivery_id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where('lease_until', '<', now)
    .orderBy('delivery_id')
    .limit(o.limit);
  if (dialectOf(db) === 'postgres') due = due.forUpdate().skipLocked();
  return db
    .updateTable('webhook_delivery')
    .set({ holder: o.holder, lease_until: new Date(o.now.getTime() + o.leaseMs).toISOString() })
    .where('delivery_id', 'in', due)
    .where('status', '=', 'pending')
    .returning(['delivery_id', 'endpoint_id', 'msg_id', 'event_type', 'payload', 'attempts', 'created_at'])
    .execute();
}

/**
 * Records one attempt of a delivery this process holds, and its outcome: sent, tried again at
 * `retryAt`, or given up (`retryAt` null after a failure).
 */
export async function recordAttempt(
  db: Db,
  delivery: { delivery_id: number },
  holder: string,
  attempt: Omit<WebhookAttempt, 'at'> & { at: Date },
  outcome: { sent: true } | { sent: false; retryAt: Date | null },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_attempt')
      .values({
        delivery_id: delivery.delivery_id,
        at: attempt.at.toISOString(),
        status_code: attempt.status_code,
        error: attempt.error?.slice(0, 500) ?? null,
        duration_ms: Math.round(attempt.duration_ms),
      })
      .execute();
    await trx
      .updateTable('webhook_delivery')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        holder: null,
        lease_until: '',
        status: outcome.sent ? 'sent' : outcome.retryAt ? 'pending' : 'failed',
        ...(!outcome.sent && outcome.retryAt && { next_attempt_at: outcome.retryAt.toISOString() }),
      }))
      .where('delivery_id', '=', delivery.delivery_id)
      .where('holder', '=', holder)
      .execute();
  });
}

/** An endpoint's newest deliveries (at most `limit`), each with its attempts, oldest first. */
export async function listDeliveries(db: Db, endpointId: number, limit: number): Promise<WebhookDelivery[]> {
  const rows = await db
    .selectFrom('webhook_delivery')
    .select(['delivery_id', 'msg_id', 'event_type', 'status', 'next_attempt_at', 'created_at'])
    .where('endpoint_id', '=', endpointId)
    .orderBy('delivery_id', 'desc')
    .limit(limit)
    .execute();
  const ids = rows.map((r) => r.delivery_id);
  const attempts =
    ids.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempt')
          .select(['delivery_id', 'at', 'status_code', 'error', 'duration_ms'])
          .where('delivery_id', 'in', ids)
          .orderBy('attempt_id')
          .execute();
  return rows.map((r) => ({
    delivery_id: r.delivery_id,
    msg_id: r.msg_id,
    event_type: r.event_type,
    status: r.status as WebhookDeliveryStatus,
    next_attempt_at: r.status === 'pending' ? r.next_attempt_at : null,
    created_at: r.created_at,
    attempts: attempts
      .filter((a) => a.delivery_id === r.delivery_id)
      .map(({ at, status_code, error, duration_ms }) => ({ at, status_code, error, duration_ms })),
  }));
}

/** Puts a delivery of this endpoint back in line at once, its count of attempts from zero; false when none. */
export async function resendDelivery(
  db: Db,
  endpointId: number,
  deliveryId: number,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_delivery')
    .set({
      status: 'pending',
      attempts: 0,
      next_attempt_at: now.toISOString(),
      lease_until: '',
      holder: null,
    })
    .where('delivery_id', '=', deliveryId)
    .where('endpoint_id', '=', endpointId)
    .where('status', '!=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Whether any delivery waits to be sent (an earlier run's, or another process's). */
export async function hasDeliveriesWaiting(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_delivery')
    .select('delivery_id')
    .where('status', '=', 'pending')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
