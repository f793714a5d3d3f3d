import { useTranslation } from 'react-i18next';
import { useOnlineStatus } from '../offline/online-status';
import s from './connection-status.module.css';

/**
 * The header's online/offline indicator: a green dot while online, an 'Offline' badge without a
 * connection. The server render and hydration show an empty slot of the same size (the server
 * cannot know the visitor's connection); the real state appears right after hydration.
 */
export function ConnectionStatus() {
  const online = useOnlineStatus();
  const { t } = useTranslation();
  if (online === null) {
    return (
      <span className={s.status} aria-hidden="true">
        <span className={s.dot} />
      </span>
    );
  }
  return (
    <span
      className={`${s.status} ${online ? s.online : s.offline}`}
      role="status"
      title={online ? t('connection.onlineHint') : t('connection.offlineHint')}
      data-testid="connection-status"
      data-online={online}
    >
      <span className={s.dot} aria-hidden="true" />
      {online ? <span className="visually-hidden">{t('connection.online')}</span> : t('connection.offline')}
    </span>
  );
}
