import { config } from '../config';
import { z } from 'zod/mini';
import { uploadForm } from './client';
import { ApplicationAnswer, type ApplicationInput } from '../../contract/applications';
import type { UploadProgress } from '../../contract/upload';

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
    ...(input.contact_country ? { contact_country: input.contact_country } : {}),
    address: input.address,
    consent: input.consent ? 'true' : 'false',
    website: input.website,
    ...(input.lang ? { lang: input.lang } : {}),
    ...input.source,
  };
}

/** The address applications are posted to. */
export const applicationsUrl = () => `${config.manuscriptApi}/manage-job-applications`;

/** Any OK answer counts; its Message is used when it has one. */
const LenientAnswer = z.catch(ApplicationAnswer, {});

/**
 * POST {manuscript API}/manage-job-applications as multipart/form-data, through the one upload
 * transport (progress for the form's bar). Answers the server's Message (may be absent); throws
 * ApiError (status 0 = network or aborted).
 */
export function submitApplication(
  input: ApplicationInput,
  { onProgress, signal }: { onProgress?: (p: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<ApplicationAnswer> {
  const form = new FormData();
  // Text first: the server can check them before the file has arrived.
  for (const [name, value] of Object.entries(applicationFields(input))) form.append(name, value);
  form.append('resume', input.resume, input.resume.name);
  return uploadForm(LenientAnswer, applicationsUrl(), form, {
    headers: { 'Idempotency-Key': input.idempotencyKey },
    onProgress,
    signal,
  });
}
