import { lazy, Suspense } from 'react';
import type { OutboxKind } from '../offline/send-queue';
import { useOutboxInUse } from '../offline/use-outbox-in-use';

const OutboxList = lazy(() => import('./outbox-list'));

/**
 * 'Waiting to send' under a form: the kept submissions of this kind (outbox-list.tsx), loaded only
 * on a device that has a send queue, so a first visit downloads none of it.
 */
export function WaitingToSend({ kind }: { kind: OutboxKind }) {
  const inUse = useOutboxInUse();
  if (!inUse) return null;
  return (
    <Suspense fallback={null}>
      <OutboxList kind={kind} />
    </Suspense>
  );
}
