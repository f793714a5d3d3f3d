import { useMachine } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { sendQueueLive } from './send-queue.live';

/**
 * Sends the send queue from the page and says so with a toast (whoever sent it: this tab,
 * another tab or the service worker, so each sent entry is announced once per open tab). With
 * `owner` (the back office, signed in) it sends that person's own changes.
 */
export default function SendQueue({ owner }: { owner?: number }) {
  const { i18n } = useTranslation();
  const [machine] = useState(() => sendQueueLive(i18n, owner));
  useMachine(machine);
  return null;
}
