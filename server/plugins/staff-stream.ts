import fp from 'fastify-plugin';
import type { Permission } from '../../contract/auth';
import { STAFF_EVENT_PERMISSION, StaffEvent } from '../../contract/staff-events';
import { openRedisChannel, type RedisChannel } from '../lib/redis-channel';

/** One open stream: whose permissions it carries, and where its text goes. */
export interface StaffStreamMember {
  /** The person whose tab it is: they are not told of their own changes (their screen shows them). */
  userId: number;
  /** The session it was opened with (its stored hash): signing out ends it at once. */
  session: string;
  permissions: readonly Permission[];
  write(text: string): void;
  end(): void;
}

/** A stream that has this much unsent text (a client that stopped reading) is ended. */
export const STAFF_STREAM_BACKLOG_MAX = 256 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    /** The open staff event streams of this process (routes/admin-events.ts). */
    staffStream: {
      /** Adds a stream; answers how to take it out. */
      join(member: StaffStreamMember): () => void;
      /** Sends an event to every stream whose person may read its records, but the one who made it. */
      broadcast(event: StaffEvent, by: number | null): void;
      /** Ends the streams of a session (it signed out); other processes end theirs at the next heartbeat. */
      endSession(session: string): void;
      /** How many are open (for metrics and tests). */
      size(): number;
    };
  }
}

/**
 * The staff's event streams (docs/decisions/035-staff-stream.md): each signed-in back-office tab
 * holds one; an event goes to the streams whose person holds its permission, as an SSE message.
 * With REDIS_URL, an event is also told to the other processes of the site on a Redis channel, so
 * a colleague served by another process hears it (without Redis, or while it is away, only the
 * streams of the process that made the change hear it). Every stream is ended before the app
 * closes (preClose), so a shutdown does not wait for them.
 */
export const staffStream = fp<{ redisUrl?: string; redisKeyPrefix?: string }>(
  async (app, { redisUrl, redisKeyPrefix = 'manna:' }) => {
    const members = new Set<StaffStreamMember>();
    const deliver = (event: StaffEvent, by: number | null) => {
      const needs = STAFF_EVENT_PERMISSION[event.type];
      const text = `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
      for (const member of members)
        if (member.userId !== by && member.permissions.includes(needs)) member.write(text);
    };
    let channel: RedisChannel | undefined;
    if (redisUrl) {
      channel = await openRedisChannel(redisUrl, `${redisKeyPrefix}staff-events`, (message) => {
        try {
          const { event, by } = JSON.parse(message) as { event: unknown; by: unknown };
          const parsed = StaffEvent.safeParse(event);
          if (parsed.success) deliver(parsed.data, typeof by === 'number' ? by : null);
        } catch {
          // not ours: ignored
        }
      });
      const opened = channel;
      app.addHook('onClose', () => opened.close());
    }
    app.decorate('staffStream', {
      join(member: StaffStreamMember) {
        members.add(member);
        return () => void members.delete(member);
      },
      broadcast(event: StaffEvent, by: number | null) {
        deliver(event, by);
        channel?.publish(JSON.stringify({ event, by }));
      },
      endSession(session: string) {
        for (const member of [...members]) if (member.session === session) member.end();
      },
      size: () => members.size,
    });
    app.addHook('preClose', async () => {
      for (const member of [...members]) member.end();
    });
  },
  { name: 'staff-stream' },
);
