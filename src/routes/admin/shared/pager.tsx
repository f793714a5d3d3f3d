import { useTranslation } from 'react-i18next';
import type { AnyActorRef } from 'xstate';
import { Pagination, usePager } from '../../../components/pagination';

export { showingFigures } from '../../../../contract/paging';

/**
 * Prev, numbered pages, Next for a paged list actor (the shared paged-list.machine.ts, the screen's
 * own or its machine's `list` child), drawn by the shared <Pagination>; shown only when there is
 * more than one page.
 */
export function Pager({ pagination, label }: { pagination: AnyActorRef | undefined; label: string }) {
  const { t } = useTranslation('admin-inbox');
  const view = usePager(pagination);
  if (!pagination) return null;
  return (
    <Pagination
      view={view}
      labels={{
        label,
        previous: t('pager.prev'),
        next: t('pager.next'),
        page: (page) => t('pager.page', { page }),
      }}
      onSelect={(page) => pagination.send({ type: 'page.select', page })}
      onPrevious={() => pagination.send({ type: 'page.previous' })}
      onNext={() => pagination.send({ type: 'page.next' })}
    />
  );
}

/** A date and time of the server (ISO, UTC) in the reader's language, in UTC like the filters. */
export function formatDay(iso: string, lang: string, withTime = false): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(lang, {
    dateStyle: 'medium',
    ...(withTime ? { timeStyle: 'short' } : {}),
    timeZone: 'UTC',
  }).format(d);
}

/**
 * A date and time in the site's chosen language and the reader's time zone (client-only screen,
 * so no hydration concern).
 */
export function formatWhen(iso: string, lang: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' });
}
