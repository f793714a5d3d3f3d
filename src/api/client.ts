import type { ZodMiniType } from 'zod/mini';
import type { UploadProgress } from '../../contract/upload';
import { conflictOf, ifMatch, VersionConflict } from '../../contract/versions';

/** A non-2xx answer or an answer that does not match the contract. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: Record<string, string> = {},
    /** The refused fields' codes, from a translated form (contract/form-rules.ts). */
    readonly codes: Record<string, string> = {},
    /** The answer's JSON body as it came (a 409 carries the record as it is now). */
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
  /** The request never reached the server (offline, DNS, refused). */
  get isNetwork(): boolean {
    return this.status === 0;
  }
}

const sessionEndListeners = new Set<() => void>();

/**
 * Calls `listener` whenever an API answer is 401: the session has ended. The back office listens
 * once (admin-app.tsx) and asks to sign in again over the open screen, so no screen checks for 401
 * itself; it only stays quiet about it (`isSessionEnded`). Returns the unsubscribe.
 */
export function onSessionEnded(listener: () => void): () => void {
  sessionEndListeners.add(listener);
  return () => {
    sessionEndListeners.delete(listener);
  };
}

/** An answer 401, which the transport has already reported to `onSessionEnded`'s listeners. */
export const isSessionEnded = (error: unknown): boolean => error instanceof ApiError && error.status === 401;

let proofAsker: (() => Promise<boolean>) | null = null;

/**
 * The back office answers the server's "confirm it is you first" (403 `reauth`) with one dialog
 * (admin-app.tsx, machines/fresh-proof.machine.ts): `asker` answers whether a fresh proof was given.
 * Returns the unsubscribe.
 */
export function onProofNeeded(asker: () => Promise<boolean>): () => void {
  proofAsker = asker;
  return () => {
    if (proofAsker === asker) proofAsker = null;
  };
}

/** The server refused a change for want of a fresh proof (403, code `reauth`). */
export const needsFreshProof = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 403 && error.codes.form === 'reauth';

/**
 * A change that grants power or touches how someone signs in (docs/decisions/009-security-model.md):
 * when the server asks for a fresh proof, the person gives it in place and the change is sent again,
 * once; without a proof (cancelled, or nobody to ask), the server's refusal stands.
 */
export async function withFreshProof<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (!needsFreshProof(error) || !proofAsker || !(await proofAsker())) throw error;
    return send();
  }
}

/** The server's own words in an answer's JSON body: its `message` (or `Message`), else null. */
export function answerMessage(body: unknown): string | null {
  const b = (body ?? {}) as { message?: unknown; Message?: unknown };
  const m = b.message ?? b.Message;
  return typeof m === 'string' && m ? m : null;
}

const record = (value: unknown): Record<string, string> =>
  value && typeof value === 'object' ? (value as Record<string, string>) : {};

/** The ApiError of a non-2xx answer, from its JSON body when it has one ({ message | Message, errors, codes }). */
function failure(status: number, body: unknown): ApiError {
  const b = body as { errors?: unknown; codes?: unknown } | null;
  const error = new ApiError(
    status,
    answerMessage(body) ?? `Request failed with status ${status}`,
    record(b?.errors),
    record(b?.codes),
    body,
  );
  if (status === 401)
    for (const listener of sessionEndListeners) {
      // a listener that fails must not keep the caller's promise from settling
      try {
        listener();
      } catch (listenerError) {
        console.warn('A session-end listener failed:', listenerError);
      }
    }
  return error;
}

/** A 2xx answer's body checked against the contract. */
function answerOf<T>(schema: ZodMiniType<T>, status: number, data: unknown): T {
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ApiError(status, 'The server sent an answer of an unexpected shape');
  return parsed.data;
}

/** A 2xx answer as it came: its status and its JSON body (`undefined` when the body is not JSON). */
export interface RawAnswer {
  status: number;
  body: unknown;
}

const NOT_JSON = Symbol('not JSON');

/**
 * Sends one request and reads its answer; the one place the app calls fetch. Throws ApiError
 * with status 0 when no answer came (offline, DNS, refused). Most callers want `fetchJson`; the
 * send queue, which replays stored requests and judges the status itself, uses this.
 */
export async function sendRequest(url: string, init?: RequestInit): Promise<RawAnswer> {
  let res: Response;
  try {
    res = await fetch(url, {
      credentials: 'same-origin',
      ...init,
      headers: { Accept: 'application/json', ...(init?.headers ?? {}) },
    });
  } catch (err) {
    throw new ApiError(0, err instanceof Error ? err.message : 'Network error');
  }
  const body: unknown = await res.json().catch(() => NOT_JSON);
  if (!res.ok) throw failure(res.status, body === NOT_JSON ? null : body);
  return { status: res.status, body: body === NOT_JSON ? undefined : body };
}

/**
 * Fetches JSON and checks it against the shared contract. Every API module goes through here,
 * so a changed server shape is an error at the edge, not a blank screen.
 */
export async function fetchJson<T>(schema: ZodMiniType<T>, url: string, init?: RequestInit): Promise<T> {
  const { status, body } = await sendRequest(url, init);
  if (body === undefined) throw new ApiError(status, 'The server sent an answer that is not JSON');
  return answerOf(schema, status, body);
}

export interface UploadOptions {
  /** Extra request headers (an Idempotency-Key, the back office's CSRF header). */
  headers?: Record<string, string>;
  /** Send the session cookie (the back office); a public form sends none. */
  withCredentials?: boolean;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/**
 * POSTs a multipart form and checks the JSON answer against the contract, like `fetchJson`, with
 * XMLHttpRequest because fetch cannot report upload progress and the forms show a real progress
 * bar. Throws ApiError: status 0 when the request never got an answer (network) or was aborted.
 * An empty 2xx body is checked as `{}`.
 */
export function uploadForm<T>(
  schema: ZodMiniType<T>,
  url: string,
  form: FormData,
  { headers = {}, withCredentials = false, onProgress, signal }: UploadOptions = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ApiError(0, 'Aborted'));
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.withCredentials = withCredentials;
    xhr.responseType = 'text';
    if (onProgress)
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress({ loaded: e.loaded, total: e.total });
      };
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.onerror = () => {
      done();
      reject(new ApiError(0, 'Network error'));
    };
    xhr.onabort = () => {
      done();
      reject(new ApiError(0, 'Aborted'));
    };
    xhr.onload = () => {
      done();
      let data: unknown = null;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        data = null;
      }
      if (xhr.status < 200 || xhr.status >= 300) return reject(failure(xhr.status, data));
      try {
        resolve(answerOf(schema, xhr.status, data ?? {}));
      } catch (error) {
        reject(error);
      }
    };
    xhr.send(form);
  });
}

/**
 * A change to a versioned record (docs/decisions/022): a 409 is thrown as a `VersionConflict`
 * holding the record as it is now (read with `row`), who changed it and when; any other failure
 * as it came. `versioned(JobOpeningRow, fetchJson(...))`.
 */
export async function versioned<T, R>(row: ZodMiniType<R>, request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    const conflict = error instanceof ApiError ? conflictOf(row, error.status, error.body) : null;
    throw conflict ? new VersionConflict(conflict) : error;
  }
}

/** JSON body helper for POST/PATCH. */
export function jsonBody(body: unknown, method = 'POST', headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/**
 * The header every back-office write carries besides the browser's Origin (server/plugins/auth.ts
 * refuses a cookie-authenticated write without it); a customer's own backend ignores it.
 */
export const CSRF_HEADERS: Readonly<Record<string, string>> = { 'X-Manna-CSRF': '1' };
/** A back-office write with a JSON body; `version`, for a change to a versioned record, goes as If-Match. */
export const adminWrite = (body: unknown, method = 'POST', version?: number): RequestInit =>
  jsonBody(body, method, version === undefined ? CSRF_HEADERS : { ...CSRF_HEADERS, ...ifMatch(version) });
/** A back-office DELETE. */
export const adminDelete = (): RequestInit => ({ method: 'DELETE', headers: { ...CSRF_HEADERS } });

/** Builds a query string from defined values. */
export function toQuery(params: Record<string, string | number | boolean | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) q.set(k, String(v));
  return q.toString();
}
