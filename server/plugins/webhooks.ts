import fp from 'fastify-plugin';
import { PROCESS_HOLDER } from '../db/scheduled-task.repo';
import { hasDeliveriesWaiting } from '../db/webhooks.repo';
import { workerLoop } from '../lib/worker-loop';
import { addressRules, queueEvent } from '../services/webhooks';
import { systemContext } from '../services/context';
import { deliverDue } from '../webhooks/sender';
import type { DomainEvent } from '../events/domain-events';

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: {
      /** Queues a delivery of `event` for each endpoint that wants it, and sends it. */
      queue(event: DomainEvent): Promise<void>;
      /** Sends what is due now (a test event, "Send again") instead of at the next poll. */
      poke(): void;
    };
  }
}

/** How often the deliveries are read for one that is due (a retry's time, another process's). */
export const WEBHOOK_POLL_MS = 5_000;
/** How long a process holds a delivery it is sending; the receiver has a third of it to answer. */
export const WEBHOOK_LEASE_MS = 60_000;

/**
 * Webhooks (docs/decisions/037-webhooks.md): decorates `app.webhooks` and runs the sender in this
 * process, every WEBHOOK_POLL_MS and whenever a delivery is queued, from the first delivery
 * queued (or found waiting at start) on.
 */
export const webhooks = fp(
  async (app) => {
    const { config } = app;
    const sender = workerLoop({
      pollMs: WEBHOOK_POLL_MS,
      round: (stopped) =>
        deliverDue(app.db, {
          holder: PROCESS_HOLDER,
          leaseMs: WEBHOOK_LEASE_MS,
          retryBaseMs: config.WEBHOOK_RETRY_SECONDS * 1000,
          secret: config.SECRET,
          timeoutMs: WEBHOOK_LEASE_MS / 3,
          stopped,
          log: app.log,
          ...addressRules({ config }),
        }),
      onError: (err) => app.log.error({ err }, 'The webhook sender failed; it tries again at the next poll'),
      // the sender runs once there is something to send: a site without endpoints polls nothing
      startOnPoke: true,
    });
    const poke = () => sender.poke();
    app.decorate('webhooks', {
      queue: async (event: DomainEvent) => {
        const ctx = systemContext({ db: app.db, config, storage: app.storage, log: app.log });
        if ((await queueEvent(ctx, event)) > 0) poke();
      },
      poke,
    });
    app.addHook('onReady', async () => {
      // deliveries left waiting by an earlier run are sent
      const waiting = await hasDeliveriesWaiting(app.db).catch((err: unknown) => {
        app.log.warn(
          { err },
          'Could not look for webhook deliveries waiting; the next one queued starts the sender',
        );
        return false;
      });
      if (waiting) poke();
    });
    app.addHook('preClose', () => sender.stop());
  },
  { name: 'webhooks', decorators: { fastify: ['db', 'config', 'storage'] } },
);
