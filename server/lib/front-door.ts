import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { preparedResponse, type PreparedAnswer } from './prepared-answer';

/** Whether the address at `hop` (0 is the socket's peer) is a proxy we trust, as Fastify asks it. */
export type TrustFunction = (address: string, hop: number) => boolean;

/** One answer the front door sent, for the request log and the metrics. */
export interface FrontDoorAnswer {
  id: string;
  method: string;
  url: string;
  host: string;
  ip: string | undefined;
  socket: { remotePort?: number };
  route: string;
  status: number;
  ms: number;
}

/** A public answer a route has sent, kept for the same address while `fresh()` holds. */
export interface KeptAnswer {
  answer: PreparedAnswer;
  cacheControl: string;
  /** The route pattern ('/api/bind-company-blog') for the log and the metrics. */
  route: string;
  /** The route's own cache still holds this answer (not expired, not forgotten after a write). */
  fresh: () => boolean;
}

export interface FrontDoorOptions {
  /** The headers every API answer carries (plugins/security.ts apiSecurityHeaders). */
  headers: readonly (readonly [string, string])[];
  /** The proxies trusted for the client's address and host; undefined trusts none. */
  trust: TrustFunction | undefined;
  /** The request id, as Fastify's genReqId makes it. */
  requestId: (request: IncomingMessage) => string;
  /** Logs and counts an answer, as the onResponse hooks do for Fastify's. */
  report: (answer: FrontDoorAnswer) => void;
  /** At most this many addresses are kept (the least recently kept go first). */
  maxEntries?: number;
}

/** Longer addresses are never kept: a query that long is not a page of the site. */
const MAX_KEPT_URL = 512;

const lastEntry = (value: string) => value.slice(value.lastIndexOf(',') + 1).trim();

/**
 * The front door of the HTTP server: a request for a public read that was answered a moment ago
 * (the blog list and search, the openings, the plans) is answered again from the kept bytes before
 * Fastify sees it, the way a caching proxy in front of the site would. It exists for speed: at
 * tens of thousands of requests a second Fastify's per-request work (routing, hooks, validation)
 * costs more than the answer itself.
 *
 * It only ever repeats what the route itself answered for the same method and address (GET, the
 * raw URL with its query, which the route validated), and only while the route's own cache holds
 * that answer: a write in the admin that forgets the cache stops the front door at once. The
 * answer goes out as Fastify would send it (lib/prepared-answer.ts preparedResponse: ETag and 304,
 * brotli or gzip as the client accepts, the API security headers, X-Request-Id), and is logged
 * and counted as one request line like any other. Everything else (other methods, unknown
 * addresses, a closing server) goes to Fastify.
 */
export class FrontDoor {
  /** Set when the server starts closing: Fastify answers from then on (503, Connection: close). */
  closing = false;
  private readonly kept = new Map<string, KeptAnswer>();
  private readonly maxEntries: number;

  constructor(private readonly options: FrontDoorOptions) {
    this.maxEntries = options.maxEntries ?? 2000;
  }

  /** Keeps the answer a route just sent for this GET address. */
  keep(url: string, entry: KeptAnswer): void {
    if (url.length > MAX_KEPT_URL) return;
    this.kept.delete(url);
    this.kept.set(url, entry);
    if (this.kept.size > this.maxEntries) this.kept.delete(this.kept.keys().next().value as string);
  }

  get size(): number {
    return this.kept.size;
  }

  /** Answers the request from a kept answer and returns true, or returns false for Fastify. */
  serve(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || this.closing || request.url === undefined) return false;
    const entry = this.kept.get(request.url);
    if (!entry) return false;
    if (!entry.fresh()) {
      this.kept.delete(request.url);
      return false;
    }
    const started = performance.now();
    const { headers, trust } = this.options;
    const id = this.options.requestId(request);
    const out = preparedResponse(entry.answer, entry.cacheControl, request.headers);
    const sent: Record<string, string | number> = {};
    for (const [name, value] of headers) sent[name] = value;
    Object.assign(sent, out.headers);
    sent['x-request-id'] = id;
    if (out.body) sent['content-length'] = out.body.length;
    response.writeHead(out.status, sent);
    response.end(out.body ?? undefined);

    const socket = request.socket;
    const trusted = trust !== undefined && socket.remoteAddress !== undefined;
    const forwardedHost = request.headers['x-forwarded-host'];
    this.options.report({
      id,
      method: 'GET',
      url: request.url,
      host:
        trusted && typeof forwardedHost === 'string' && trust(socket.remoteAddress!, 0)
          ? lastEntry(forwardedHost)
          : (request.headers.host ?? ''),
      ip: trusted ? proxyAddr(request, trust) : socket.remoteAddress,
      socket: { remotePort: socket.remotePort },
      route: entry.route,
      status: out.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
    return true;
  }
}
