import { useMachine } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RevisionEntity } from '../../api/contract/revisions';
import { presenceLive } from './presence.live';
import s from './history.module.css';

/**
 * "<name> is editing this since 10:31" at the top of an editor while colleagues (or this person in
 * another tab) have the same record open (editing-presence.machine.ts). `recordId` null: nothing
 * is open, or a new record.
 */
export function OthersEditing({ entity, recordId }: { entity: RevisionEntity; recordId: number | null }) {
  const { t, i18n } = useTranslation('common');
  const [machine] = useState(presenceLive);
  const [state, send] = useMachine(machine);
  useEffect(() => {
    if (recordId === null) return;
    send({ type: 'presence.start', record: { entity, recordId, editorId: crypto.randomUUID() } });
    return () => send({ type: 'presence.stop' });
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
