import type { Generated } from 'kysely';
import type { SourceColumns } from './analytics.schema';

/**
 * Tables of the contact area (migrations 0200-0299). `Database` in schema.ts extends this
 * interface. Timestamps are ISO 8601 strings in UTC; flags are 0/1 integers on both databases.
 */
export interface ContactMessageTable extends SourceColumns {
  message_id: Generated<number>;
  name: string;
  email: string;
  /** '' when the sender gave none (the field is optional). */
  company: Generated<string>;
  message: string;
  /** The site language the message was written from ('en', 'ml', 'fr', 'de', 'es'). */
  lang: Generated<string>;
  /** 0 until an admin marks the message handled. */
  handled: Generated<number>;
  /** The client's Idempotency-Key, unique; null when the request had none. */
  idempotency_key: string | null;
  created_at: string;
  /** 1 when received, one more at each change of its handled flag or assignee (docs/decisions/022). */
  version: Generated<number>;
  /** The colleague it is assigned to (migration 2600); null for nobody. */
  assignee_id: number | null;
}

/** A reply staff sent to a message's writer (migration 2600), deleted with the message. */
export interface MessageReplyTable {
  reply_id: Generated<number>;
  message_id: number;
  author_id: number | null;
  author_email: string;
  text: string;
  /** The outbox mail that carries it. */
  mail_id: number | null;
  created_at: string;
}

export interface ContactTables {
  contact_message: ContactMessageTable;
  message_reply: MessageReplyTable;
}
