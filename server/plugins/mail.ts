import type { FastifyInstance } from 'fastify';
import { applicationsBetween } from '../db/application-list.repo';
import { noticeRecipients } from '../db/auth.repo';
import { messagesBetween } from '../db/contact-admin.repo';
import type { Config } from '../config';
import { DIGEST_LINES, queueDigest } from '../mail/mails';
import { sendDueMail, smtpTransport } from '../mail/sender';
import { finishLease, PROCESS_HOLDER, releaseLease, takeLease, taskState } from '../db/scheduled-task.repo';
import fp from 'fastify-plugin';
import { workerLoop } from '../lib/worker-loop';

declare module 'fastify' {
  interface FastifyInstance {
    mail: {
      /** Whether SMTP_URL is set: mail leaves the outbox, and password links can be mailed. */
      configured: boolean;
      /** Sends what is due now (after a change queued mail) instead of at the next poll. */
      poke(): void;
    };
  }
}

/** How often the outbox is read for mail that is due (a retry's time, another process's mail). */
export const MAIL_POLL_MS = 5_000;
export const DIGEST_TASK = 'mail-digest';
const DAY_MS = 24 * 3_600_000;
const DIGEST_CHECK_MS = 3_600_000;

/**
 * Email (server/mail): decorates `app.mail`, and with SMTP_URL set, runs the sender in this process
 * (every MAIL_POLL_MS and whenever a change pokes it) and the daily digest (one process of the
 * site, by lease). Without SMTP_URL, mail waits in the outbox and the back office shows it; one log
 * line says so at start.
 */
export const mail = fp<{ config: Config }>(
  async (app, { config }) => {
    const leaseMs = config.MAIL_LEASE_SECONDS * 1000;
    const smtp = config.SMTP_URL ? smtpTransport(config.SMTP_URL, Math.min(30_000, leaseMs / 3)) : undefined;
    const sender = workerLoop({
      pollMs: MAIL_POLL_MS,
      round: (stopped) =>
        sendDueMail(app.db, smtp!, {
          holder: PROCESS_HOLDER,
          leaseMs,
          stopped,
          from: config.MAIL_FROM,
          // an answer to an acknowledgment reaches the person who reads that mailbox
          replyTo: {
            'message-ack': config.CONTACT_REPLY_TO,
            'application-ack': config.HIRING_REPLY_TO,
            'candidate-mail': config.HIRING_REPLY_TO,
            'message-reply': config.CONTACT_REPLY_TO,
          },
          retryBaseMs: config.MAIL_RETRY_SECONDS * 1000,
          log: app.log,
          events: app.events,
        }),
      onError: (err) => app.log.error({ err }, 'The mail sender failed; it tries again at the next poll'),
    });
    let stopped = true;
    const run = () => {
      if (smtp) sender.poke();
    };

    app.decorate('mail', { configured: smtp !== undefined, poke: run });

    let digestTimer: NodeJS.Timeout | undefined;
    let digesting: Promise<unknown> | undefined;
    const digest = () => {
      digesting = runDigestTask(app, new Date())
        .then((queued) => {
          if (queued > 0) run();
        })
        .catch((err: unknown) =>
          app.log.error({ err }, 'The daily digest failed; it is tried again at the next check'),
        )
        .finally(() => {
          digesting = undefined;
          if (!stopped) digestTimer = setTimeout(digest, DIGEST_CHECK_MS).unref();
        });
    };

    app.addHook('onReady', async () => {
      if (!smtp) {
        app.log.info('Mail is not configured (SMTP_URL): mail waits in the outbox, shown in the back office');
        return;
      }
      stopped = false;
      sender.start();
      digestTimer = setTimeout(digest, 60_000).unref();
    });
    app.addHook('preClose', async () => {
      stopped = true;
      clearTimeout(digestTimer);
      await Promise.all([sender.stop(), digesting]);
      (smtp as { close?: () => void } | undefined)?.close?.();
    });
  },
  { name: 'mail', dependencies: ['events'], decorators: { fastify: ['db'] } },
);

/**
 * The daily digest: once a day (one process, by lease), each user who chose it gets one mail with
 * the applications and messages of the day they may read. Answers how many digests were queued.
 */
export async function runDigestTask(
  app: Pick<FastifyInstance, 'db' | 'config' | 'log'>,
  now: Date,
): Promise<number> {
  const previous = (await taskState(app.db, DIGEST_TASK))?.last_run_at;
  const taken = await takeLease(app.db, DIGEST_TASK, {
    holder: PROCESS_HOLDER,
    now,
    leaseMs: 10 * 60_000,
    everyMs: DAY_MS,
  });
  if (!taken) return 0;
  try {
    const since = previous ?? new Date(now.getTime() - DAY_MS).toISOString();
    const until = now.toISOString();
    const applications = await applicationsBetween(app.db, since, until, DIGEST_LINES);
    const messages = await messagesBetween(app.db, since, until, DIGEST_LINES);
    const users = new Map<
      number,
      { email: string; lang: string | null; applications: boolean; messages: boolean }
    >();
    for (const kind of ['applications', 'messages'] as const) {
      for (const u of await noticeRecipients(app.db, kind, 'digest')) {
        const entry = users.get(u.user_id) ?? {
          email: u.email,
          lang: u.lang,
          applications: false,
          messages: false,
        };
        entry[kind] = true;
        users.set(u.user_id, entry);
      }
    }
    let queued = 0;
    await app.db.transaction().execute(async (trx) => {
      for (const user of users.values()) {
        const parts = {
          applications: user.applications ? applications : undefined,
          messages: user.messages ? messages : undefined,
        };
        if (await queueDigest(trx, app.config, user, parts, now)) queued += 1;
      }
    });
    await finishLease(app.db, DIGEST_TASK, PROCESS_HOLDER, now, `queued ${queued}`);
    if (queued > 0) app.log.info({ queued }, 'Daily digests queued');
    return queued;
  } catch (err) {
    await releaseLease(
      app.db,
      DIGEST_TASK,
      PROCESS_HOLDER,
      `failed: ${err instanceof Error ? err.message : String(err)}`,
    ).catch(() => {});
    throw err;
  }
}
