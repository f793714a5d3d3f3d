/**
 * Tables of migrations 0600-0699. The search indexes of that range (job_application_fts,
 * contact_message_fts, the PostgreSQL search_vector columns) are read with raw SQL only and are
 * not listed here. `Database` in schema.ts extends this interface.
 */

/** One row per scheduled task: who holds its lease, until when, and when it last ran. */
export interface ScheduledTaskTable {
  name: string;
  /** The process holding the lease (host:pid:random), null when free. */
  holder: string | null;
  /** ISO 8601; '' or a past time means the lease is free. */
  lease_until: string;
  last_run_at: string | null;
  /** A short summary of the last run ('deleted 3'), for logs and support. */
  last_result: string | null;
}

export interface ScheduledTables {
  scheduled_task: ScheduledTaskTable;
}
