import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Upload routes (applications, blog images) share how a refused upload ends.
 *
 * A refusal (413, 415, 429, a bad form) is often decided while the body is still arriving. If the
 * server then stopped reading, or closed the connection, the sender would see a hung upload or a
 * broken pipe (EPIPE, "network error") instead of the answer's message. So the answer goes out at
 * once and the rest of the body is read and thrown away, up to DRAIN_MAX_BYTES and DRAIN_MAX_MS,
 * keeping the connection usable; a body declared larger than DRAIN_MAX_BYTES is answered with
 * `Connection: close` instead, and one that turns out larger, or is still arriving (or stalled:
 * some clients stop sending once answered) DRAIN_MAX_MS later, has its connection closed. When
 * the app closes, connections still draining are closed too, so a shutdown never waits on them.
 */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
export const DRAIN_MAX_MS = 15_000;

/** Adds the hooks to an upload route's plugin: `drainRefusedUploads(app)`. */
export function drainRefusedUploads(app: FastifyInstance): void {
  const draining = new Set<Socket>();

  app.addHook('onSend', async (request, reply, payload) => {
    const raw = request.raw;
    if (raw.complete || raw.destroyed) return payload;
    const declared = Number(request.headers['content-length']);
    if (declared > DRAIN_MAX_BYTES) {
      reply.header('connection', 'close');
      return payload;
    }
    // a real socket (app.inject has none to keep or close)
    const socket = typeof raw.socket?.destroy === 'function' ? raw.socket : undefined;
    let drained = 0;
    const stop = () => {
      clearTimeout(timer);
      if (socket) draining.delete(socket);
    };
    const timer = setTimeout(() => {
      stop();
      raw.destroy();
    }, DRAIN_MAX_MS).unref();
    if (socket) {
      draining.add(socket);
      socket.once('close', stop);
    }
    raw.unpipe(); // whatever still parsed it (busboy) lets go
    raw.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > DRAIN_MAX_BYTES) raw.destroy();
    });
    // 'end': the body arrived whole (the request's 'close' fires with the answer, too early)
    raw.once('end', stop);
    raw.resume();
    return payload;
  });

  app.addHook('preClose', async () => {
    for (const socket of draining) socket.destroy();
    draining.clear();
  });
}
