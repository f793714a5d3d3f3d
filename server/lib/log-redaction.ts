/**
 * What request logs may show of an address: the path and the query, with the value of every
 * parameter that is or carries a secret replaced by `[redacted]` (a signed file address's
 * signature, an S3 presigned address's credential and signature, tokens, keys). Anyone who can read
 * the logs must not be able to replay a CV address from them. Searches and anything that looks like
 * an email address are redacted too: the logs carry no personal data.
 */
const SECRET_PARAM = /sig|signature|token|secret|password|credential|key/i;
/** Parameters that carry what a person typed to find someone (names, emails): personal data. */
const PERSONAL_PARAM = /^(search|q|email)$/i;

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
      if (eq === -1) return pair;
      let value = pair.slice(eq + 1);
      try {
        value = decodeURIComponent(value.replace(/\+/g, ' '));
      } catch {
        // a malformed value is judged as sent
      }
      const personal = PERSONAL_PARAM.test(decoded) || value.includes('@');
      return SECRET_PARAM.test(decoded) || personal ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, at)}?${params.join('&')}`;
}

/** What the request log reads of a request: a FastifyRequest, or the front door's answer. */
type LoggedRequest = {
  method: string;
  url: string;
  host: string;
  ip: string | undefined;
  socket?: { remotePort?: number };
};

/** Fastify's `req` log serializer, with the address redacted. */
export function requestLogFields(request: LoggedRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
