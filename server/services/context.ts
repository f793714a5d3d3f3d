import type { Kysely } from 'kysely';
import type { Config } from '../config';
import { recordAudit, type AuditEntry } from '../db/audit.repo';
import { recordRevision, type RevisionEntry } from '../db/revisions.repo';
import type { Database } from '../db/schema';
import type { DomainEvent, EventPublisher } from '../events/domain-events';
import type { Storage } from '../storage/storage';

/**
 * The service layer (docs/decisions/021-service-layer.md): one module per area, plain functions
 * whose first argument is a ServiceContext. A service owns its transaction and writes, inside it,
 * the audit row and the outbox mail of the change, and names what happened (`announce`); once it
 * has committed, those domain events are published (docs/decisions/034-domain-events.md) and the
 * listeners in events/listeners.ts do what follows. Routes, the CLI, the seed, scheduled tasks and tests all call services;
 * nothing here knows HTTP (a refusal is an HttpError, which names its status and imports nothing
 * from Fastify).
 */

/** Who acts: a signed-in user, or null for the system and for visitors. */
export type Actor = { user_id: number; email: string } | null;

export interface ServiceLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Whether mail leaves the site (SMTP_URL); without it, mail waits in the outbox. */
export const mailConfigured = (ctx: Pick<ServiceContext, 'config'>) => ctx.config.SMTP_URL !== undefined;

export interface ServiceContext {
  db: Kysely<Database>;
  storage: Storage;
  config: Config;
  actor: Actor;
  now(): Date;
  log: ServiceLog;
  /** Where what happened is announced once it has committed (events/domain-events.ts). */
  events: EventPublisher;
}

/** A change in progress: its transaction, and what it announces once it commits. */
export interface Change {
  trx: Kysely<Database>;
  /** When the change happens (the same for every row it writes). */
  at: Date;
  /** The audit row of the change, by the context's actor, in the change's transaction. */
  audit(entry: Omit<AuditEntry, 'actor'>): Promise<void>;
  /** A revision of a blog post or job opening, by the context's actor (the newest REVISION_KEEP are kept). */
  revision(entry: RevisionEntry): Promise<void>;
  /** What happened: published, in order, once the change has committed (never when it fails). */
  announce(event: DomainEvent): void;
}

/**
 * Runs `work` in one transaction; after it commits, publishes what it announced, in order (one
 * `mail.queued` however many mails it queued). Nothing is published when it fails: nothing changed.
 */
export async function inTransaction<T>(
  ctx: ServiceContext,
  work: (change: Change) => Promise<T>,
): Promise<T> {
  const events: DomainEvent[] = [];
  const at = ctx.now();
  const result = await ctx.db.transaction().execute((trx) =>
    work({
      trx,
      at,
      audit: (entry) => recordAudit(trx, { ...entry, actor: ctx.actor }, at),
      revision: (entry) => recordRevision(trx, entry, ctx.actor, at, ctx.config.REVISION_KEEP),
      announce: (event) => {
        if (event.type !== 'mail.queued' || !events.some((e) => e.type === 'mail.queued')) events.push(event);
      },
    }),
  );
  const origin = { by: ctx.actor?.user_id ?? null };
  for (const event of events) ctx.events.publish(event, origin);
  return result;
}

/**
 * A context outside a running server (the CLI): the system acts, with the site's database and file
 * store; what it announces is published to `events` when given (no server listens otherwise: mail
 * queued waits for the server's next look at the outbox).
 */
export function systemContext(
  parts: Pick<ServiceContext, 'db' | 'config' | 'storage'> & Partial<ServiceContext>,
): ServiceContext {
  return {
    actor: null,
    now: () => new Date(),
    log: { info: () => {}, warn: () => {}, error: () => {} },
    events: { publish: () => {} },
    ...parts,
  };
}
