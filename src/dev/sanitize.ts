/**
 * What the Stately inspector may see (src/dev/inspector.ts): machine contexts and events with
 * people's personal data replaced. Applicants' and contacts' names, email addresses, phone
 * numbers, addresses, CV files and messages never leave the page, in development either.
 */

export const REDACTED = '[redacted]';

/** Field names that hold personal data anywhere in a context or event. */
const PERSONAL = new Set([
  'full_name',
  'fullname',
  'name',
  'email',
  'contact_number',
  'contact',
  'phone',
  'address',
  'resume',
  'cv',
  'file',
  'company',
  'message',
  'password',
  'website',
  'fields',
  'body',
  // the send queue's entries: the sender's name or the job applied for
  'label',
]);

const MAX_DEPTH = 6;

function redact(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (typeof Blob !== 'undefined' && value instanceof Blob) return '[file]';
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  // Actors, promises and class instances are not data: the inspector shows their kind.
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto !== Object.prototype && proto !== null)
    return `[${(value as object).constructor?.name ?? 'object'}]`;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    out[key] = PERSONAL.has(key.toLowerCase()) && v !== '' && v != null ? REDACTED : redact(v, depth + 1);
  }
  return out;
}

export function sanitizeContext<T>(context: T): T {
  return redact(context, 0) as T;
}

/** Events keep their type; typed values (`field.change`) and personal fields are replaced. */
export function sanitizeEvent<T extends { type: string }>(event: T): T {
  const clean = redact(event, 0) as Record<string, unknown>;
  if (event.type.startsWith('field.')) {
    // `name` of a field event is the field's name (useful, not personal); its value is personal.
    const original = event as unknown as { name?: unknown };
    if (typeof original.name === 'string') clean.name = original.name;
    if ('value' in clean && clean.value !== '') clean.value = REDACTED;
  }
  return clean as T;
}
