import { config } from '../config';
import { ApiError } from './client';
import { ApplicationAnswer, type ApplicationInput } from './contract/applications';
import type { UploadProgress } from './contract/upload';

export type { ApplicationInput, UploadProgress };

/**
 * The text fields of the multipart form, in the order they are sent (the file goes last). The
 * send queue keeps the same fields when an application is made offline (src/offline/submit.ts).
 */
export function applicationFields(input: ApplicationInput): Record<string, string> {
  return {
    job_id: String(input.job_id),
    full_name: input.full_name,
    email: input.email,
    contact_number: input.contact_number,
    address: input.address,
    consent: input.consent ? 'true' : 'false',
    website: input.website,
  };
}

/** The address applications are posted to. */
export const applicationsUrl = () => `${config.manuscriptApi}/manage-job-applications`;

/**
 * POST {manuscript API}/manage-job-applications as multipart/form-data. XMLHttpRequest instead of
 * fetch: fetch cannot report upload progress, and the form shows a real progress bar. Answers the
 * server's Message (may be absent); throws ApiError (status 0 = network or aborted).
 */
export function submitApplication(
  input: ApplicationInput,
  { onProgress, signal }: { onProgress?: (p: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<ApplicationAnswer> {
  const form = new FormData();
  // Text first: the server can check them before the file has arrived.
  for (const [name, value] of Object.entries(applicationFields(input))) form.append(name, value);
  form.append('resume', input.resume, input.resume.name);

  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', applicationsUrl());
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Idempotency-Key', input.idempotencyKey);
    xhr.withCredentials = false;
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.({ loaded: e.loaded, total: e.total });
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
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      if (xhr.status < 200 || xhr.status >= 300) {
        const b = (body ?? {}) as { message?: unknown; Message?: unknown; errors?: unknown };
        const message = typeof (b.message ?? b.Message) === 'string' ? String(b.message ?? b.Message) : '';
        const errors = b.errors && typeof b.errors === 'object' ? (b.errors as Record<string, string>) : {};
        reject(new ApiError(xhr.status, message || `Request failed with status ${xhr.status}`, errors));
        return;
      }
      // Any OK answer counts (spec section 7); its Message is used when it has one.
      const parsed = ApplicationAnswer.safeParse(body ?? {});
      resolve(parsed.success ? parsed.data : {});
    };
    if (signal?.aborted) {
      reject(new ApiError(0, 'Aborted'));
      return;
    }
    xhr.send(form);
  });
}
