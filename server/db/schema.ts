/**
 * The Kysely type of the database: one interface per table, named as the table. A migration that
 * adds or changes a table updates this file in the same change. Column types follow what both
 * SQLite and PostgreSQL return (see server/README.md, "Data").
 */

import type { AnalyticsTables } from './analytics.schema';
import type { AuthTables } from './auth.schema';
import type { BlogTables } from './blog.schema';
import type { ContactTables } from './contact.schema';
import type { JobsTables } from './jobs.schema';
import type { MailTables } from './mail.schema';
import type { PricingTables } from './pricing.schema';
import type { ScheduledTables } from './scheduled-task.schema';
import type { WebhookTables } from './webhooks.schema';
import type { SiteSearchTables } from './site-search.schema';

/** Small key/value facts about the installation (created by 0001-initial). */
export interface AppMetaTable {
  key: string;
  value: string;
}

/** One row per (scope, Idempotency-Key): pending while status is null, then the first answer. */
export interface IdempotencyKeyTable {
  scope: string;
  key: string;
  status: number | null;
  body: string | null;
  /** SHA-256 (hex) of the request the key answered; another request with the key is refused. */
  body_hash: string | null;
  created_at: string;
}

export interface Database
  extends
    AuthTables,
    JobsTables,
    BlogTables,
    PricingTables,
    ContactTables,
    ScheduledTables,
    MailTables,
    AnalyticsTables,
    WebhookTables,
    SiteSearchTables {
  app_meta: AppMetaTable;
  idempotency_key: IdempotencyKeyTable;
}
