import http from 'node:http';
import https from 'node:https';
import type { Kysely } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { claimDueDeliveries, getEndpoint, recordAttempt } from '../db/webhooks.repo';
import type { Database } from '../db/schema';
import { backoffMs } from '../lib/backoff';
import { open } from '../lib/secret-box';
import { guardedLookup, type AddressRules } from './address';

/**
 * Delivers the webhook queue (db/webhooks.repo.ts; docs/decisions/037-webhooks.md). A process
 * leases one due delivery at a time, POSTs its JSON body to the endpoint signed per the Standard
 * Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature`: HMAC-SHA256 of
 * `id.timestamp.body` with the endpoint's secret), and records the attempt: a 2xx answer is sent;
 * anything else (another status, no answer within the timeout, an address now refused) is tried
 * again after a wait that doubles from WEBHOOK_RETRY_SECONDS up to an hour, and given up after
 * WEBHOOK_MAX_ATTEMPTS attempts (about a day). A redirect is not followed: it is a failure.
 */

export const WEBHOOK_MAX_ATTEMPTS = 30;
/** What a receiver's answer may be: read to this size, the rest dropped. */
const ANSWER_MAX_BYTES = 64 * 1024;

export interface DeliverOptions extends AddressRules {
  holder: string;
  leaseMs: number;
  retryBaseMs: number;
  /** SECRET: the endpoints' signing secrets are sealed with it. */
  secret: string;
  /** A receiver that has not answered after this long has failed this attempt. */
  timeoutMs: number;
  stopped?: () => boolean;
  now?: () => Date;
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/** The POST of one delivery: the receiver's status, or the error that stopped it. */
export function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  o: AddressRules & { timeoutMs: number },
): Promise<{ status: number }> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let late: Error | undefined;
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(o),
        // a connection of its own each time: its address is checked at each delivery
        agent: false,
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > ANSWER_MAX_BYTES) response.destroy();
        });
        // an answer cut off by the deadline is no answer
        const answered = () => (late ? reject(late) : resolve({ status: response.statusCode ?? 0 }));
        response.on('close', answered);
        response.on('error', answered);
      },
    );
    // the whole exchange ends at the timeout (a quiet socket, and a slow one that trickles too)
    const deadline = setTimeout(() => {
      late = new Error(`No answer within ${o.timeoutMs / 1000} s`);
      request.destroy(late);
    }, o.timeoutMs);
    request.on('error', (err) => reject(err));
    request.on('close', () => clearTimeout(deadline));
    request.end(body);
  });
}

/** The signed headers of a delivery (Standard Webhooks). */
export function signedHeaders(secret: string, msgId: string, at: Date, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Manna-Webhooks/1',
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(msgId, at, body),
  };
}

/** Sends every delivery that is due now; answers how many were sent and how many failed. */
export async function deliverDue(
  db: Kysely<Database>,
  o: DeliverOptions,
): Promise<{ sent: number; failed: number }> {
  const clock = o.now ?? (() => new Date());
  let sent = 0;
  let failed = 0;
  while (!o.stopped?.()) {
    const [delivery] = await claimDueDeliveries(db, {
      holder: o.holder,
      now: clock(),
      leaseMs: o.leaseMs,
      limit: 1,
    });
    if (!delivery) break;
    const started = clock();
    let status: number | null = null;
    let error: string | null = null;
    const endpoint = await getEndpoint(db, delivery.endpoint_id);
    const secret = endpoint ? open(o.secret, 'webhook', endpoint.secret) : null;
    if (!endpoint || !secret) error = 'The endpoint or its secret is gone';
    else {
      try {
        ({ status } = await post(
          endpoint.url,
          delivery.payload,
          signedHeaders(secret, delivery.msg_id, started, delivery.payload),
          o,
        ));
        if (status < 200 || status >= 300) error = `Answered ${status}`;
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
    }
    const at = clock();
    const attempt = {
      at: started,
      status_code: status,
      error,
      duration_ms: at.getTime() - started.getTime(),
    };
    if (error === null) {
      await recordAttempt(db, delivery, o.holder, attempt, { sent: true });
      sent += 1;
      continue;
    }
    failed += 1;
    const giveUp = !endpoint || delivery.attempts + 1 >= WEBHOOK_MAX_ATTEMPTS;
    const retryAt = giveUp ? null : new Date(at.getTime() + backoffMs(o.retryBaseMs, delivery.attempts));
    await recordAttempt(db, delivery, o.holder, attempt, { sent: false, retryAt });
    o.log?.warn(
      {
        delivery_id: delivery.delivery_id,
        endpoint_id: delivery.endpoint_id,
        err: error,
        retry_at: retryAt?.toISOString() ?? null,
      },
      giveUp
        ? 'A webhook could not be delivered; gave up'
        : 'A webhook could not be delivered; trying again later',
    );
  }
  if (sent > 0) o.log?.info({ sent }, 'Webhooks delivered');
  return { sent, failed };
}
