import { z } from 'zod/mini';

/**
 * Webhooks (docs/decisions/037-webhooks.md): staff with webhooks.manage add an endpoint (an address
 * and the events it wants); each such event is delivered to it as a POST signed per the Standard
 * Webhooks specification, tried again with a growing wait until it is answered 2xx, each attempt
 * listed. Shared by the server and the browser.
 */

/** The events an endpoint may want: the site's domain events an outside tool can use. */
export const WEBHOOK_EVENTS = [
  'post.published',
  'post.unpublished',
  'opening.status_changed',
  'application.received',
  'application.status_changed',
  'message.received',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** What "Send a test event" sends. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 200;

/** A delivery: waiting (its first attempt, or the next after a failure), sent (2xx), or given up. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'sent', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** Why an address is refused (the screen has the texts; `webhookErrors` the English). */
export const WEBHOOK_URL_CODES = [
  'urlRequired',
  'urlInvalid',
  'urlHttps',
  'urlPrivate',
  'urlTooLong',
] as const;
export type WebhookUrlCode = (typeof WEBHOOK_URL_CODES)[number];
export const WEBHOOK_ERROR_CODES = [...WEBHOOK_URL_CODES, 'eventsRequired', 'descriptionTooLong'] as const;
export type WebhookErrorCode = (typeof WEBHOOK_ERROR_CODES)[number];

export const WEBHOOK_MESSAGES: Record<WebhookErrorCode, string> = {
  urlRequired: 'Enter the address to send events to.',
  urlInvalid: 'Enter a whole address, such as https://hooks.example.com/manna.',
  urlHttps: 'The address must start with https://.',
  urlPrivate: 'The address is on a private or local network; events are sent only to public addresses.',
  urlTooLong: `The address must be at most ${WEBHOOK_URL_MAX} characters.`,
  eventsRequired: 'Choose at least one event.',
  descriptionTooLong: `The description must be at most ${WEBHOOK_DESCRIPTION_MAX} characters.`,
};

/** The form's fields, in the order it shows them. */
export const WEBHOOK_FIELDS = ['url', 'description', 'events'] as const;
export type WebhookField = (typeof WEBHOOK_FIELDS)[number];
/** What the form holds: the events as a comma-separated list (the form's checkboxes write it). */
export type WebhookFormValues = Record<WebhookField, string>;

export const eventsOf = (list: string): WebhookEvent[] =>
  WEBHOOK_EVENTS.filter((e) =>
    list
      .split(',')
      .map((s) => s.trim())
      .includes(e),
  );

/**
 * What is wrong with an address before its name is resolved, or undefined: a whole http(s)
 * address without a user or password in it. Where it points (a private network) and https:// for
 * a public address are the server's to check (server/webhooks/address.ts).
 */
export function webhookUrlError(raw: string): WebhookUrlCode | undefined {
  const url = raw.trim();
  if (!url) return 'urlRequired';
  if (url.length > WEBHOOK_URL_MAX) return 'urlTooLong';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'urlInvalid';
  }
  return ['http:', 'https:'].includes(parsed.protocol) &&
    parsed.hostname &&
    !parsed.username &&
    !parsed.password
    ? undefined
    : 'urlInvalid';
}

/** The form's rules that need no network: its address (`webhookUrlError`), a description, an event. */
export function webhookFormErrors(
  values: WebhookFormValues,
): Partial<Record<WebhookField, WebhookErrorCode>> {
  const errors: Partial<Record<WebhookField, WebhookErrorCode>> = {};
  const url = webhookUrlError(values.url);
  if (url) errors.url = url;
  if (values.description.trim().length > WEBHOOK_DESCRIPTION_MAX) errors.description = 'descriptionTooLong';
  if (eventsOf(values.events).length === 0) errors.events = 'eventsRequired';
  return errors;
}

/** POST /api/admin/webhooks (a new endpoint), PATCH /api/admin/webhooks/:id (If-Match: its version). */
export const WebhookBody = z.object({
  url: z.string().check(z.maxLength(WEBHOOK_URL_MAX + 1)),
  description: z._default(z.string().check(z.maxLength(WEBHOOK_DESCRIPTION_MAX + 1)), ''),
  events: z.array(z.enum(WEBHOOK_EVENTS)).check(z.maxLength(WEBHOOK_EVENTS.length)),
  /** Paused: its events are not delivered (nor queued) until it is resumed. */
  enabled: z._default(z.boolean(), true),
});
export type WebhookBody = z.infer<typeof WebhookBody>;

export const WebhookRow = z.object({
  endpoint_id: z.number(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  /** The signing secret (`whsec_…`): the receiver verifies each delivery with it. */
  secret: z.string(),
  created_at: z.string(),
  version: z.number(),
  /** The newest delivery's status and time, or null before the first. */
  last_status: z.nullable(z.enum(WEBHOOK_DELIVERY_STATUSES)),
  last_at: z.nullable(z.string()),
  /** The count of all endpoints, on the first row (a list's rows carry it: contract/paging.ts). */
  total_count: z.optional(z.number()),
});
export type WebhookRow = z.infer<typeof WebhookRow>;
export const WebhookRows = z.array(WebhookRow);

export const WebhookAnswer = z.object({ message: z.string(), row: WebhookRow });
export type WebhookAnswer = z.infer<typeof WebhookAnswer>;

/** One try at a delivery: the receiver's HTTP status (null when none came) and what went wrong. */
export const WebhookAttempt = z.object({
  at: z.string(),
  status_code: z.nullable(z.number()),
  error: z.nullable(z.string()),
  duration_ms: z.number(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookDelivery = z.object({
  delivery_id: z.number(),
  /** The Standard Webhooks message id (`webhook-id`): the same on every attempt. */
  msg_id: z.string(),
  event_type: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.array(WebhookAttempt),
  next_attempt_at: z.nullable(z.string()),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
export const WebhookDeliveries = z.array(WebhookDelivery);
