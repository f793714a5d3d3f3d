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

/** decodeURIComponent, or the text as sent when it is malformed. Only text with a `%` can change. */
const decoded = (text: string) => {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** How many times a value is decoded to see what it hides (`%2540` is an `@` encoded twice). */
const MAX_DECODES = 3;
/** How deep addresses inside addresses (`next=/admin?search=...`) are looked into. */
const MAX_NESTING = 2;

/** `text` decoded until it stops changing, at most MAX_DECODES times. */
const deeplyDecoded = (text: string) => {
  let plain = text;
  for (let i = 0; i < MAX_DECODES && plain.includes('%'); i++) {
    const next = decoded(plain);
    if (next === plain) break;
    plain = next;
  }
  return plain;
};

/**
 * Each `name=value` pair is judged on its decoded name and its value decoded until it stops
 * changing: a secret's or a search's name, or a value holding an `@`, is written
 * `name=[redacted]`; a value that is itself an address with a query (`next=/admin?search=ann`,
 * encoded once or twice) is written with that query redacted by the same rule, encoded; a pair
 * without `=` is kept as sent. It walks the query once and builds a new address only when a pair
 * changes (every request line runs it).
 */
export function redactUrl(url: string, depth = 0): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  let out = '';
  let kept = at + 1; // url[0, kept) is copied to `out` unchanged when a pair changes
  let start = at + 1;
  while (start <= url.length) {
    let end = url.indexOf('&', start);
    if (end === -1) end = url.length;
    const eq = url.indexOf('=', start);
    if (eq !== -1 && eq < end) {
      const name = url.slice(start, eq);
      const plain = decoded(name);
      let replaced: string | undefined;
      if (SECRET_PARAM.test(plain) || PERSONAL_PARAM.test(plain)) replaced = '[redacted]';
      else {
        const value = url.slice(eq + 1, end);
        const deep = value.includes('%') ? deeplyDecoded(value) : value;
        if (deep.includes('@')) replaced = '[redacted]';
        else if (depth < MAX_NESTING && deep.includes('?')) {
          const inner = redactUrl(deep, depth + 1);
          if (inner !== deep) replaced = encodeURIComponent(inner).replaceAll('%5Bredacted%5D', '[redacted]');
        }
      }
      if (replaced !== undefined) {
        out += `${url.slice(kept, start)}${name}=${replaced}`;
        kept = end;
      }
    }
    start = end + 1;
  }
  return kept === at + 1 ? url : `${url.slice(0, at + 1)}${out}${url.slice(kept)}`;
}

/** What the request log reads of a request: a FastifyRequest, or the front door's answer. */
type LoggedRequest = {
  method: string;
  url: string;
  host: string;
  ip: string | undefined;
  socket?: { remotePort?: number };
};

/** A page view's beacon: its line names no client (docs/decisions/028-visit-figures.md). */
const isViewBeacon = (request: LoggedRequest) =>
  request.method === 'POST' && /^\/api\/views\/?(\?|$)/.test(request.url);

/**
 * Fastify's `req` log serializer, with the address redacted; a page view's beacon without the
 * client's address and port, which beside the view's day would tie a visitor to an address.
 */
export function requestLogFields(request: LoggedRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    ...(isViewBeacon(request) ? {} : { remoteAddress: request.ip, remotePort: request.socket?.remotePort }),
  };
}
