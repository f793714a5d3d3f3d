import type { Generated } from 'kysely';

/** Tables of webhooks (migration 2950). Timestamps are ISO 8601 strings in UTC. */

export interface WebhookEndpointTable {
  endpoint_id: Generated<number>;
  url: string;
  description: Generated<string>;
  /** The events it wants, comma-separated (contract/webhooks.ts WEBHOOK_EVENTS). */
  events: string;
  /** The signing secret (`whsec_…`), sealed with SECRET (lib/secret-box.ts). */
  secret: string;
  /** 1, or 0 while paused. */
  enabled: Generated<number>;
  version: Generated<number>;
  created_at: string;
}

/** One event for one endpoint: sent by server/webhooks/sender.ts. */
export interface WebhookDeliveryTable {
  delivery_id: Generated<number>;
  endpoint_id: number;
  /** The Standard Webhooks `webhook-id` (`msg_…`): the same on every attempt. */
  msg_id: string;
  event_type: string;
  /** The JSON body sent: { type, timestamp, data }. */
  payload: string;
  /** 'pending' until answered 2xx ('sent') or given up ('failed'). */
  status: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: string;
  holder: string | null;
  lease_until: Generated<string>;
  created_at: string;
}

export interface WebhookAttemptTable {
  attempt_id: Generated<number>;
  delivery_id: number;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface WebhookTables {
  webhook_endpoint: WebhookEndpointTable;
  webhook_delivery: WebhookDeliveryTable;
  webhook_attempt: WebhookAttemptTable;
}
