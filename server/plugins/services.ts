import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from '../services/context';
import { global } from './global';

declare module 'fastify' {
  interface FastifyInstance {
    /** The service context of a request (server/services): its user acts, its log is used. */
    services(request?: FastifyRequest): ServiceContext;
  }
}

/**
 * Decorates `app.services(request)`, the one way a route reaches the services: the database, the
 * file store, the settings, the signed-in user as the actor, and what a committed change tells
 * (the mail sender, the public read cache). Registered after storage, mail and public reads.
 */
export const services = global(async (app) => {
  app.decorate('services', (request?: FastifyRequest): ServiceContext => {
    const user = request?.user;
    return {
      db: app.db,
      storage: app.storage,
      config: app.config,
      actor: user ? { user_id: user.user_id, email: user.email } : null,
      now: () => new Date(),
      log: request?.log ?? app.log,
      mailQueued: () => app.mail.poke(),
      publicChanged: (area) => {
        app.publicReads.invalidate(area);
        // a post scheduled (or unscheduled) here is timed from the next tick, not the next look
        if (area === 'blog' && app.hasDecorator('blogScheduleChanged')) app.blogScheduleChanged();
      },
    };
  });
});
