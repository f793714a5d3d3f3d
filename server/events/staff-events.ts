import type { StaffEvent } from '../../contract/staff-events';
import type { DomainEvent } from './domain-events';

/** What the staff's screens are told of a domain event: its type and the ids of its records. */
export function staffEventOf(event: DomainEvent): StaffEvent {
  switch (event.type) {
    case 'post.added':
    case 'post.edited':
    case 'post.published':
    case 'post.unpublished':
    case 'post.deleted':
      return { type: event.type, ids: [event.blog_id] };
    case 'opening.added':
    case 'opening.edited':
    case 'opening.status_changed':
    case 'opening.deleted':
      return { type: event.type, ids: [event.job_id] };
    case 'application.received':
    case 'application.status_changed':
    case 'application.timeline_changed':
      return { type: event.type, ids: [event.application_id] };
    case 'application.deleted':
      return { type: event.type, ids: event.application_ids };
    case 'message.received':
    case 'message.changed':
    case 'message.deleted':
      return { type: event.type, ids: [event.message_id] };
    case 'mail.queued':
      return { type: event.type, ids: [] };
    case 'mail.delivery':
      return { type: event.type, ids: [event.mail_id] };
  }
}
