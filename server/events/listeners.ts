import fp from 'fastify-plugin';
import { WEBHOOK_EVENTS } from '../../contract/webhooks';
import { staffEventOf } from './staff-events';

/**
 * What follows from what happened: every listener of the process's domain events, in one place
 * (docs/decisions/034-domain-events.md). Services announce; they never call these themselves (a
 * lint rule keeps services from importing plugins or listeners).
 *
 * - The public read cache (plugins/public-reads.ts) forgets the blog when a post changes, and the
 *   openings when one does: the next visitor reads the change.
 * - The blog schedule (plugins/scheduled-tasks.ts) asks the database again when a post changed: a
 *   post scheduled here is timed from the next tick.
 * - The mail sender (plugins/mail.ts) looks at the outbox when a change queued mail.
 * - The staff's open screens (plugins/staff-stream.ts) hear of every change of a record they may
 *   read, by a colleague or by the server (a mail delivered), and read it again; nobody hears of
 *   their own changes (the screen that made one shows it already).
 * - Webhooks (plugins/webhooks.ts): an event an endpoint wants is queued for it and sent, signed.
 * - The site search (plugins/site-search.ts) indexes a post or an opening again when it changes:
 *   found while public, gone the moment it is not.
 */
export const listeners = fp(
  async (app) => {
    const { events } = app;
    // a post or an opening changed: its public lists are stale, the blog schedule may have moved,
    // and the search indexes it again (a publication is always also an edit or an addition)
    for (const type of ['post.added', 'post.edited', 'post.deleted'] as const)
      events.on(type, (event) => {
        app.publicReads.invalidate('blog');
        app.blogScheduleChanged();
        return app.siteSearch.postChanged(event.blog_id);
      });
    for (const type of [
      'opening.added',
      'opening.edited',
      'opening.status_changed',
      'opening.deleted',
    ] as const)
      events.on(type, (event) => {
        app.publicReads.invalidate('jobs');
        return app.siteSearch.openingChanged(event.job_id);
      });
    events.on('mail.queued', () => app.mail.poke());
    events.on('*', (event, { by }) => app.staffStream.broadcast(staffEventOf(event), by));
    for (const type of WEBHOOK_EVENTS) events.on(type, (event) => app.webhooks.queue(event));
  },
  {
    name: 'listeners',
    dependencies: [
      'events',
      'mail',
      'public-reads',
      'scheduled-tasks',
      'staff-stream',
      'webhooks',
      'site-search',
    ],
    decorators: {
      fastify: [
        'events',
        'mail',
        'publicReads',
        'blogScheduleChanged',
        'staffStream',
        'webhooks',
        'siteSearch',
      ],
    },
  },
);
