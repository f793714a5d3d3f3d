import { useMachine } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApplyModal } from './apply-modal';
import { applyFormLive } from './apply-form.live';
import type { ApplyRequest } from './apply-launcher';

/**
 * The apply form (its machine, with its live effects, and its modal), loaded the first time a
 * visitor moves towards an Apply button (apply-launcher.tsx): the careers list and a job's page
 * carry none of it at first load. Mounted once loaded and kept, so each request to apply opens
 * the same machine with that opening.
 */
export default function ApplyFlow({ request }: { request: ApplyRequest }) {
  const { i18n } = useTranslation('careers');
  // the i18n instance is the same for the page's life; its language changes in place
  const [machine] = useState(() => applyFormLive(i18n));
  const [apply, send] = useMachine(machine);
  useEffect(() => send({ type: 'form.open', job: request.job }), [request, send]);
  return (
    <ApplyModal
      open={!apply.matches('closed')}
      submitting={apply.matches('submitting')}
      askingDiscard={apply.matches('confirmingDiscard')}
      context={apply.context}
      send={send}
    />
  );
}
