import { useMachine } from '@xstate/react';
import { useEffect, useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RevisionEntity } from '../../../../contract/revisions';
import { presenceLive } from './presence.live';
import s from './history.module.css';

/**
 * "<name> is editing this since 10:31" at the top of an editor while colleagues have the same
 * record open (editing-presence.machine.ts); never the person themselves. Closing the editor,
 * hiding the tab and signing out say goodbye. `recordId` null: nothing is open, or a new record.
 */
export function OthersEditing({ entity, recordId }: { entity: RevisionEntity; recordId: number | null }) {
  const { t, i18n } = useTranslation('common');
  const [machine] = useState(presenceLive);
  const [state, send] = useMachine(machine);
  // When the editor unmounts, React stops the machine in a passive effect's cleanup, before the
  // one below could say goodbye; a layout effect's cleanup runs first, while it still runs.
  useLayoutEffect(() => () => send({ type: 'presence.stop' }), [send]);
  useEffect(() => {
    if (recordId === null) return;
    const start = () =>
      send({ type: 'presence.start', record: { entity, recordId, editorId: crypto.randomUUID() } });
    const stop = () => send({ type: 'presence.stop' });
    // a tab closed or put away says goodbye too; one brought back from the back-forward cache
    // says hello again
    const hidden = () => stop();
    const shown = (e: PageTransitionEvent) => {
      if (e.persisted) start();
    };
    start();
    window.addEventListener('pagehide', hidden);
    window.addEventListener('pageshow', shown);
    return () => {
      window.removeEventListener('pagehide', hidden);
      window.removeEventListener('pageshow', shown);
      stop();
    };
  }, [entity, recordId, send]);
  const { others } = state.context;
  return (
    <div role="status" className={s.presence}>
      {others.map((other) => (
        <p key={`${other.email}-${other.since}`}>
          {t('presence.editing', {
            name: other.email,
            time: new Date(other.since).toLocaleTimeString(i18n.language, {
              hour: '2-digit',
              minute: '2-digit',
            }),
          })}
        </p>
      ))}
    </div>
  );
}
