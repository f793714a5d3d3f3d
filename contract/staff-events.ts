import { z } from 'zod/mini';
import type { Permission } from './auth';

/**
 * GET /api/admin/events (signed in): a server-sent event stream of what colleagues (and the server)
 * changed, so the back office's lists follow without a reload (docs/decisions/035-staff-stream.md).
 * Each event names its type and the ids of the records it touched; a screen reads the records
 * again through its own API. Only the events of records the person may read are sent.
 */
export const STAFF_EVENT_PERMISSION = {
  'post.added': 'blog.manage',
  'post.edited': 'blog.manage',
  'post.published': 'blog.manage',
  'post.unpublished': 'blog.manage',
  'post.deleted': 'blog.manage',
  'opening.added': 'jobs.manage',
  'opening.edited': 'jobs.manage',
  'opening.status_changed': 'jobs.manage',
  'opening.deleted': 'jobs.manage',
  'application.received': 'applications.read',
  'application.status_changed': 'applications.read',
  'application.timeline_changed': 'applications.read',
  'application.deleted': 'applications.read',
  'message.received': 'messages.read',
  'message.changed': 'messages.read',
  'message.deleted': 'messages.read',
  'mail.queued': 'users.manage',
  'mail.delivery': 'users.manage',
} as const satisfies Record<string, Permission>;

export type StaffEventType = keyof typeof STAFF_EVENT_PERMISSION;
export const STAFF_EVENT_TYPES = Object.keys(STAFF_EVENT_PERMISSION) as StaffEventType[];

/** One event as the stream sends it (the `data` of an SSE message whose `event` is its type). */
export const StaffEvent = z.object({
  type: z.enum(STAFF_EVENT_TYPES as [StaffEventType, ...StaffEventType[]]),
  /** The records it touched (one, or several for a deletion of many). */
  ids: z.array(z.number()),
});
export type StaffEvent = z.infer<typeof StaffEvent>;

/** The server's comment line every HEARTBEAT_MS keeps proxies from closing a quiet stream. */
export const STAFF_STREAM_HEARTBEAT_MS = 25_000;
