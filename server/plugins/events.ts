import fp from 'fastify-plugin';
import { DomainEvents } from '../events/domain-events';

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's stream of domain events (events/domain-events.ts); listeners in events/listeners.ts. */
    events: DomainEvents;
  }
}

/**
 * Decorates `app.events`. When the app closes, the listeners' work still running is waited for
 * (docs/decisions/034-domain-events.md).
 */
export const events = fp(
  async (app) => {
    const bus = new DomainEvents(app.log);
    app.decorate('events', bus);
    app.addHook('onClose', () => bus.settled());
  },
  { name: 'events' },
);
