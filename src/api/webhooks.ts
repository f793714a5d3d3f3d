import { MessageAnswer } from '../../contract/auth';
import {
  WebhookAnswer,
  WebhookDeliveries,
  WebhookRow,
  WebhookRows,
  type WebhookBody,
} from '../../contract/webhooks';
import { adminDelete, adminWrite, fetchJson, versioned } from './client';

/**
 * The Webhooks screen's API (server/routes/admin-webhooks.ts; docs/decisions/037-webhooks.md):
 * the endpoints, a change based on the version it was read at (a `VersionConflict` when it
 * changed meanwhile), an endpoint's deliveries, "Send a test event" and "Send again".
 */
export const loadWebhooks = (init?: RequestInit) =>
  fetchJson(WebhookRows, '/api/admin/webhooks', { cache: 'no-store', ...init });

export const saveWebhook = (body: WebhookBody, id?: number, version?: number) =>
  versioned(
    WebhookRow,
    fetchJson(
      WebhookAnswer,
      id ? `/api/admin/webhooks/${id}` : '/api/admin/webhooks',
      adminWrite(body, id ? 'PATCH' : 'POST', id ? version : undefined),
    ),
  );

export const deleteWebhook = (id: number) => fetchJson(MessageAnswer, `/api/admin/webhooks/${id}`, adminDelete());

export const loadDeliveries = (id: number, init?: RequestInit) =>
  fetchJson(WebhookDeliveries, `/api/admin/webhooks/${id}/deliveries`, { cache: 'no-store', ...init });

export const sendTestEvent = (id: number) =>
  fetchJson(MessageAnswer, `/api/admin/webhooks/${id}/test`, adminWrite({}));

export const resendDelivery = (id: number, deliveryId: number) =>
  fetchJson(MessageAnswer, `/api/admin/webhooks/${id}/deliveries/${deliveryId}/resend`, adminWrite({}));
