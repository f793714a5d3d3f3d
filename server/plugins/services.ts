import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ServiceContext } from '../services/context';

declare module 'fastify' {
  interface FastifyInstance {
    /** The service context of a request (server/services): its user acts, its log is used. */
    services(request?: FastifyRequest): ServiceContext;
  }
}

/**
 * Decorates `app.services(request)`, the one way a route reaches the services: the database, the
 * file store, the settings, the signed-in user as the actor, and the stream a committed change
 * announces what happened on (plugins/events.ts; its listeners in events/listeners.ts).
 */
export const services = fp(
  async (app) => {
    app.decorate('services', (request?: FastifyRequest): ServiceContext => {
      const user = request?.user;
      return {
        db: app.db,
        storage: app.storage,
        config: app.config,
        actor: user ? { user_id: user.user_id, email: user.email } : null,
        now: () => new Date(),
        log: request?.log ?? app.log,
        events: app.events,
      };
    });
  },
  { name: 'services', dependencies: ['storage', 'events'], decorators: { fastify: ['db', 'config'] } },
);
