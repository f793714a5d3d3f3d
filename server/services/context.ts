import type { Kysely } from 'kysely';
import type { Config } from '../config';
import { recordAudit, type AuditEntry } from '../db/audit.repo';
import { recordRevision, type RevisionEntry } from '../db/revisions.repo';
import type { Database } from '../db/schema';
import type { Storage } from '../storage/storage';

/**
 * The service layer (docs/decisions/021-service-layer.md): one module per area, plain functions
 * whose first argument is a ServiceContext. A service owns its transaction and writes, inside it,
 * the audit row and the outbox mail of the change; once it has committed, it tells the mail sender
 * and the public read cache. Routes, the CLI, the seed, scheduled tasks and tests all call services;
 * nothing here knows HTTP (a refusal is an HttpError, which names its status and imports nothing
 * from Fastify).
 */

/** Who acts: a signed-in user, or null for the system and for visitors. */
export type Actor = { user_id: number; email: string } | null;

/** The public reads a change can make stale (plugins/public-reads.ts). */
export type PublicArea = 'blog' | 'jobs';

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
  /** After a change that queued mail has committed: the sender looks at the outbox now. */
  mailQueued(): void;
  /** After a change of a public area has committed: its kept public reads are stale. */
  publicChanged(area: PublicArea): void;
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
  /** This public area changed: announced after the commit. */
  changed(area: PublicArea): void;
  /** Mail was queued in the outbox: the sender is told after the commit. */
  mailQueued(): void;
}

/**
 * Runs `work` in one transaction; after it commits, announces what it changed (public reads) and
 * whether it queued mail. Nothing is announced when it fails: nothing changed.
 */
export async function inTransaction<T>(
  ctx: ServiceContext,
  work: (change: Change) => Promise<T>,
): Promise<T> {
  const areas = new Set<PublicArea>();
  let mail = false;
  const at = ctx.now();
  const result = await ctx.db.transaction().execute((trx) =>
    work({
      trx,
      at,
      audit: (entry) => recordAudit(trx, { ...entry, actor: ctx.actor }, at),
      revision: (entry) => recordRevision(trx, entry, ctx.actor, at, ctx.config.REVISION_KEEP),
      changed: (area) => areas.add(area),
      mailQueued: () => {
        mail = true;
      },
    }),
  );
  for (const area of areas) ctx.publicChanged(area);
  if (mail) ctx.mailQueued();
  return result;
}

/**
 * A context outside HTTP (the CLI, the seed, scheduled tasks, tests): the system acts, nothing is
 * told after a commit unless `mailQueued` or `publicChanged` are given.
 */
export function systemContext(
  parts: Pick<ServiceContext, 'db' | 'config'> & Partial<ServiceContext>,
): ServiceContext {
  return {
    storage: undefined as unknown as Storage,
    actor: null,
    now: () => new Date(),
    log: { info: () => {}, warn: () => {}, error: () => {} },
    mailQueued: () => {},
    publicChanged: () => {},
    ...parts,
  };
}
