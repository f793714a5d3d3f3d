import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import type { JobOpeningRow } from '../../../contract/jobs';

/** A visitor's request to apply for an opening (each click is a new one). */
export interface ApplyRequest {
  job: { id: number; title: string };
}

const loadApplyFlow = () => import('./apply-flow');
const ApplyFlow = lazy(loadApplyFlow);

/** Starts loading the apply form (once; later calls reuse the same download). */
export const warmApplyFlow = () => void loadApplyFlow().catch(() => undefined);

/**
 * Apply on the careers list and on a job's page: `apply(job)` opens the form for that opening,
 * `form` is where the page puts it. The form's code (apply-flow.tsx: the machine, the modal, the
 * upload transport) loads on the first pointer, touch or focus near an Apply button
 * (`warmApplyFlow`), and at the latest on the click, when the modal opens as soon as it is there.
 */
export function useApplyLauncher(): { apply: (job: JobOpeningRow) => void; form: ReactNode } {
  const [request, setRequest] = useState<ApplyRequest | null>(null);
  const apply = useCallback(
    (job: JobOpeningRow) => setRequest({ job: { id: job.job_id, title: job.job_title } }),
    [],
  );
  const form = request && (
    <Suspense fallback={null}>
      <ApplyFlow request={request} />
    </Suspense>
  );
  return { apply, form };
}
