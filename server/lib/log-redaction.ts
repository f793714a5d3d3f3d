import type { FastifyRequest } from 'fastify';

/**
 * What request logs may show of an address: the path and the query, with the value of every
 * parameter that is or carries a secret replaced by `[redacted]` (a signed file address's
 * signature, an S3 presigned address's credential and signature, tokens, keys). Anyone who can read
 * the logs must not be able to replay a CV address from them.
 */
const SECRET_PARAM = /sig|signature|token|secret|password|credential|key/i;

export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const params = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a malformed name is logged as sent
      }
      return eq !== -1 && SECRET_PARAM.test(decoded) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, at)}?${params.join('&')}`;
}

/** Fastify's `req` log serializer, with the address redacted. */
export function requestLogFields(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
