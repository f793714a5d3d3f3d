import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

export type SecurityOptions = {
  /** PUBLIC_URL is https: add HSTS. */
  isHttps: boolean;
  /** `sha256-…` hashes of the build's inline scripts (pages/manifest.json). */
  cspHashes: readonly string[];
  /** Extra API origins the pages call (pages/manifest.json). */
  connectSrc: readonly string[];
};

/** The security headers of every answer, in the order they are sent. */
export function securityHeaders({ isHttps, cspHashes, connectSrc }: SecurityOptions): [string, string][] {
  const csp = [
    "default-src 'self'",
    ['script-src', "'self'", ...cspHashes.map((hash) => `'${hash}'`)].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' https: data: blob:",
    "font-src 'self'",
    ['connect-src', "'self'", ...connectSrc].join(' '),
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
  const headers: [string, string][] = [
    ['content-security-policy', csp],
    ['x-content-type-options', 'nosniff'],
    ['referrer-policy', 'strict-origin-when-cross-origin'],
    ['cross-origin-opener-policy', 'same-origin'],
    ['x-frame-options', 'DENY'],
    // only features every current browser knows: an unknown one is a console error in Chromium
    ['permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()'],
  ];
  if (isHttps) headers.push(['strict-transport-security', 'max-age=31536000; includeSubDomains']);
  return headers;
}

/**
 * The headers of an API answer (`/api/...`): JSON, never a document, so the page policy (scripts,
 * styles, fonts, connections) says nothing to it. A browser that is sent to one directly gets a
 * document that may load nothing and be framed by nobody; nosniff keeps it JSON. About 450 bytes
 * less on every answer than the page headers.
 */
export function apiSecurityHeaders({ isHttps }: Pick<SecurityOptions, 'isHttps'>): [string, string][] {
  const headers: [string, string][] = [
    ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
    ['x-content-type-options', 'nosniff'],
    ['referrer-policy', 'strict-origin-when-cross-origin'],
  ];
  if (isHttps) headers.push(['strict-transport-security', 'max-age=31536000; includeSubDomains']);
  return headers;
}

/**
 * Lets pages of this site frame the page being answered (the blog editor's live preview): the
 * page policy's frame-ancestors becomes 'self', and X-Frame-Options SAMEORIGIN. Every other page
 * stays unframeable.
 */
export function framedBySelf(reply: FastifyReply) {
  const csp = String(reply.getHeader('content-security-policy') ?? '');
  reply
    .header('content-security-policy', csp.replace("frame-ancestors 'none'", "frame-ancestors 'self'"))
    .header('x-frame-options', 'SAMEORIGIN');
}

const isApi = (url: string) => url.startsWith('/api/') || url === '/api';

/**
 * Sets the headers on every response in onRequest, so they are there for errors and 404s too, and
 * a route may still replace one of them: the page headers for pages, files and feeds, the short
 * API set for `/api/...` answers.
 */
export const security = fp<SecurityOptions>(
  async (app, options) => {
    const pageHeaders = securityHeaders(options);
    const apiHeaders = apiSecurityHeaders(options);
    app.addHook('onRequest', async (request, reply) => {
      for (const [name, value] of isApi(request.url) ? apiHeaders : pageHeaders) reply.header(name, value);
    });
  },
  { name: 'security' },
);
