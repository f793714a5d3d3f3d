import type http from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long a client may take, and how many connections a process holds, so that no client can
 * take the server down by being slow (docs/decisions/009-security-model.md, "Slow clients"):
 *
 * - the headers of a request must all arrive within `headersTimeoutMs` and the whole request (the
 *   body included) within `requestTimeoutMs`, else Node answers 408 and closes the connection; a
 *   connection that sends no request within `headersTimeoutMs` is closed, one whose traffic stops
 *   after `requestTimeoutMs`, an idle keep-alive one after `keepAliveTimeoutMs`. Node checks the two request limits every `CHECK_INTERVAL_MS`.
 * - at most `maxConnections` connections are served; past that, HEALTH_RESERVE more are let in
 *   for the health checks only (`/api/health`, `/api/ready`): each gets HEALTH_RESERVE_MS to send
 *   its request, anything else on it is answered 503 and closed. Beyond the reserve a new
 *   connection is closed at once, before it costs more than its descriptor for a moment.
 * - one client address (a trusted proxy's address aside) has at most `maxPerClient` connections
 *   that are still sending a request or waiting for its answer (slow clients), so a single client
 *   cannot fill the cap and leave every visitor a 503; the next is closed at once. Idle keep-alive
 *   connections (a request answered, none sent since) do not count: one office behind a NAT, each
 *   browser keeping several open, is not refused.
 * - near the cap, idle keep-alive connections are reclaimed first: a new connection that would go
 *   past `maxConnections` closes the oldest idle one instead (a browser opens another when it needs
 *   one), and only when none is idle does it go to the reserve.
 */
export interface ConnectionLimits {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  /**
   * Connections one client address may hold busy (sending a request or waiting for its answer);
   * idle keep-alive ones do not count, and a trusted proxy's address has no such limit.
   */
  maxPerClient: number;
  /** Whether an address is a proxy we trust (TRUST_PROXY): its connections carry many clients. */
  isProxy?: (address: string) => boolean;
}

/** Connections let in past the cap for health checks, and how long each may take. */
export const HEALTH_RESERVE = 32;
export const HEALTH_RESERVE_MS = 2000;
/** How often Node looks for requests past their time (its default is 30 s). */
export const CHECK_INTERVAL_MS = 1000;

const HEALTH_PATH = /^\/api\/(health|ready)(\?|$)/;

/** The options for `http.createServer` that carry the limits. */
export function serverOptions(limits: ConnectionLimits): http.ServerOptions {
  return {
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(CHECK_INTERVAL_MS, limits.headersTimeoutMs),
  };
}

/**
 * Counts the server's connections and applies the cap; answers the request filter to run before
 * any handler: false when the request was answered here (a connection of the reserve asking for
 * something else than a health check).
 */
export function limitConnections(
  server: http.Server,
  limits: ConnectionLimits,
  onRefused: (kind: 'closed' | 'reserve' | 'client') => void = () => {},
): (request: http.IncomingMessage, response: http.ServerResponse) => boolean {
  // a connection whose traffic stops (a client that stopped reading its answer) is closed
  server.setTimeout(limits.requestTimeoutMs);
  const reserve = new WeakSet<Socket>();
  let open = 0;
  const asked = new WeakSet<Socket>();
  /** Connections idle between requests, oldest first: the first to go near the cap. */
  const idle = new Set<Socket>();
  /** Per client address: its connections that are not idle. */
  const busy = new Map<string, number>();
  const addressOf = new WeakMap<Socket, string>();
  const counted = new WeakSet<Socket>();
  /** A connection closes (or is reclaimed): it no longer counts, once. */
  const countOut = (socket: Socket) => {
    if (!counted.delete(socket)) return;
    open--;
    const client = addressOf.get(socket);
    if (client !== undefined && !idle.has(socket)) countBusy(client, -1);
    idle.delete(socket);
  };
  const countBusy = (address: string, by: number) => {
    const n = (busy.get(address) ?? 0) + by;
    if (n > 0) busy.set(address, n);
    else busy.delete(address);
  };
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    if (!limits.isProxy?.(address)) {
      if ((busy.get(address) ?? 0) >= limits.maxPerClient) {
        onRefused('client');
        socket.destroy();
        return;
      }
      addressOf.set(socket, address);
      countBusy(address, 1);
    }
    open++;
    counted.add(socket);
    // Node's own checks miss a connection that never sends a byte (with headersTimeout and the
    // checking interval set, not even the idle timeout closes it): it must ask within the header time
    const silent = setTimeout(() => {
      if (!asked.has(socket)) socket.destroy();
    }, limits.headersTimeoutMs).unref();
    socket.once('close', () => {
      clearTimeout(silent);
      countOut(socket);
    });
    // past the cap: the oldest idle connection makes room first
    if (open > limits.maxConnections && idle.size > 0) {
      const [oldest] = idle;
      countOut(oldest);
      oldest.destroy();
      return;
    }
    if (open <= limits.maxConnections) return;
    if (open > limits.maxConnections + HEALTH_RESERVE) {
      onRefused('closed');
      socket.destroy();
      return;
    }
    reserve.add(socket);
    socket.setTimeout(HEALTH_RESERVE_MS, () => socket.destroy());
  });
  return (request, response) => {
    asked.add(request.socket);
    // busy until its answer is sent, then idle (keep-alive) until the next request
    const socket = request.socket;
    const client = addressOf.get(socket);
    if (idle.delete(socket) && client !== undefined) countBusy(client, 1);
    response.once('close', () => {
      if (socket.destroyed || !counted.has(socket) || idle.has(socket) || reserve.has(socket)) return;
      idle.add(socket);
      if (client !== undefined) countBusy(client, -1);
    });
    if (!reserve.has(request.socket)) return true;
    response.shouldKeepAlive = false;
    if (HEALTH_PATH.test(request.url ?? '')) return true;
    onRefused('reserve');
    response.writeHead(503, {
      'content-type': 'application/json; charset=utf-8',
      'retry-after': '5',
      connection: 'close',
    });
    response.end('{"message":"The server is busy; try again in a few seconds"}');
    return false;
  };
}
