import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { STAFF_STREAM_HEARTBEAT_MS } from '../../contract/staff-events';
import { STAFF_STREAM_BACKLOG_MAX, type StaffStreamMember } from '../plugins/staff-stream';

/**
 * GET /api/admin/events (signed in): the staff event stream (contract/staff-events.ts,
 * docs/decisions/035-staff-stream.md), as `text/event-stream`. Signing out ends it at once; each
 * heartbeat asks again who the session is: a session ended elsewhere, disabled or expired ends the
 * stream, a role changed changes what it is sent. Reading it never marks the session used (an idle
 * tab still times out).
 */
const adminEvents: FastifyPluginAsyncZod = async (app) => {
  app.get('/admin/events', { config: { permission: 'signed-in' } }, async (request, reply) => {
    const stream = new PassThrough();
    const member: StaffStreamMember = {
      userId: request.user!.user_id,
      session: request.adminSession!.hash,
      permissions: request.user!.permissions,
      write: (text) => {
        // a client that stopped reading is let go rather than kept in memory
        if (stream.writableLength > STAFF_STREAM_BACKLOG_MAX) stream.end();
        else if (!stream.writableEnded) stream.write(text);
      },
      end: () => stream.end(),
    };
    const leave = app.staffStream.join(member);
    const beat = setInterval(() => {
      app
        .sessionUserNow(request)
        .then((user) => {
          if (!user) return stream.end();
          member.permissions = user.permissions;
          member.write(': still here\n\n');
        })
        .catch(() => stream.end());
    }, STAFF_STREAM_HEARTBEAT_MS);
    const done = () => {
      clearInterval(beat);
      leave();
    };
    stream.on('close', done);
    request.raw.on('close', () => stream.destroy());
    stream.write('retry: 5000\n: the staff event stream\n\n');
    return reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .header('x-accel-buffering', 'no')
      .send(stream);
  });
};

export default adminEvents;
