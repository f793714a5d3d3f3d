import type { ZodMiniType } from 'zod/mini';

/** A non-2xx answer or an answer that does not match the contract. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
  /** The request never reached the server (offline, DNS, refused). */
  get isNetwork(): boolean {
    return this.status === 0;
  }
}

async function errorFrom(res: Response): Promise<ApiError> {
  let message = `Request failed with status ${res.status}`;
  let errors: Record<string, string> = {};
  try {
    const body = (await res.json()) as { message?: unknown; Message?: unknown; errors?: unknown };
    const m = body.message ?? body.Message;
    if (typeof m === 'string' && m) message = m;
    if (body.errors && typeof body.errors === 'object') errors = body.errors as Record<string, string>;
  } catch {
    /* not JSON: keep the status text */
  }
  return new ApiError(res.status, message, errors);
}

/**
 * Fetches JSON and checks it against the shared contract. Every API module goes through here,
 * so a changed server shape is an error at the edge, not a blank screen.
 */
export async function fetchJson<T>(schema: ZodMiniType<T>, url: string, init?: RequestInit): Promise<T> {
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
  if (!res.ok) throw await errorFrom(res);
  let data: unknown;
  try {
    data = await res.json();
  } catch {
    throw new ApiError(res.status, 'The server sent an answer that is not JSON');
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ApiError(res.status, 'The server sent an answer of an unexpected shape');
  return parsed.data;
}

/** JSON body helper for POST/PATCH. */
export function jsonBody(body: unknown, method = 'POST', headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/** Builds a query string from defined values. */
export function toQuery(params: Record<string, string | number | boolean | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) q.set(k, String(v));
  return q.toString();
}
