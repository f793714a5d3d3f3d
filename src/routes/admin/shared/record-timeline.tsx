import { useTranslation } from 'react-i18next';
import type { Timeline, TimelineEvent } from '../../../../contract/application-timeline';
import { formatDay } from './pager';
import s from './record-timeline.module.css';

/*
 * What every record's timeline shows, whichever record it is (an application's in hiring, a
 * message's in the inbox): its events, and where the answers to a mail sent from it go.
 */

/**
 * A record's events as a list, or that they are loading, or that they failed with Retry: the
 * texts `<texts>.loading` and `<texts>.loadFailed`, and `<texts>.received` for the first event.
 */
export function TimelineEvents({
  loading,
  failed,
  timeline,
  texts,
  onRetry,
}: {
  loading: boolean;
  failed: boolean;
  timeline: Timeline | null;
  texts: 'timeline' | 'thread';
  onRetry(): void;
}) {
  const { t, i18n } = useTranslation('admin-inbox');
  return (
    <>
      {loading && (
        <p role="status" className={s.note}>
          {t(`${texts}.loading`)}
        </p>
      )}
      {failed && (
        <p role="alert" className={s.note}>
          {t(`${texts}.loadFailed`)}{' '}
          <button type="button" className={s.linkButton} onClick={onRetry}>
            {t('actions.retry')}
          </button>
        </p>
      )}
      {timeline && (
        <ol className={s.list}>
          {timeline.events.map((event, i) => (
            <li key={`${event.kind}-${event.at}-${i}`} className={s.event} data-kind={event.kind}>
              <EventLine event={event} lang={i18n.language} received={`${texts}.received`} />
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

/** One event of a record's timeline (an application's, or a message's: `received` names it). */
export function EventLine({
  event,
  lang,
  received,
}: {
  event: TimelineEvent;
  lang: string;
  received: string;
}) {
  const { t } = useTranslation('admin-inbox');
  const when = (
    <time className={s.when} dateTime={event.at}>
      {formatDay(event.at, lang, true)}
    </time>
  );
  const status = (value: string) => t(`status.${value}`, { defaultValue: value });
  switch (event.kind) {
    case 'received':
      return (
        <>
          <p className={s.what}>{t(received)}</p>
          {when}
        </>
      );
    case 'status':
      return (
        <>
          <p className={s.what}>
            {event.from
              ? t('timeline.statusChanged', { by: event.by, from: status(event.from), to: status(event.to) })
              : t('timeline.statusSet', { by: event.by, to: status(event.to) })}
          </p>
          {event.reason && <p className={s.reason}>{t('timeline.reason', { reason: event.reason })}</p>}
          {when}
        </>
      );
    case 'note':
      return (
        <>
          <p className={s.what}>{t('timeline.noted', { by: event.by })}</p>
          {when}
          <p className={s.text}>{event.text}</p>
          {event.mentioned.length > 0 && (
            <p className={s.mentioned}>{t('timeline.mentioned', { names: event.mentioned.join(', ') })}</p>
          )}
        </>
      );
    case 'mail':
      return (
        <>
          <p className={s.what}>
            {event.mail === 'message-reply'
              ? t('timeline.replied', { by: event.by })
              : event.by
                ? t('timeline.mailed', { by: event.by, subject: event.subject })
                : t('timeline.acknowledged', { subject: event.subject })}
            <span className={s.mail} data-status={event.status}>
              {t(`timeline.mailStatus.${event.status}`)}
            </span>
          </p>
          {when}
          {event.text && <p className={s.text}>{event.text}</p>}
        </>
      );
    case 'assigned':
      return (
        <>
          <p className={s.what}>
            {event.to
              ? t('timeline.assigned', { by: event.by, to: event.to })
              : t('timeline.unassigned', { by: event.by })}
          </p>
          {when}
        </>
      );
    case 'cv':
      return (
        <>
          <p className={s.what}>{t('timeline.cvOpened', { by: event.by })}</p>
          {when}
        </>
      );
  }
}

/**
 * Where the answer to a mail sent from here goes: the site's Reply-To, or plainly that it goes
 * nowhere while the setting is unset (a default that silently drops replies says so).
 */
export function RepliesGo({
  to,
  goes,
  nowhere,
}: {
  to: string | null | undefined;
  goes: string;
  nowhere: string;
}) {
  const { t } = useTranslation('admin-inbox');
  if (to === undefined) return null;
  return to ? <>{t(goes, { address: to })}</> : <strong>{t(nowhere)}</strong>;
}
