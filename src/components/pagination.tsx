import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { AnyActorRef } from 'xstate';
import { paginationView, type PagerContext } from '../machines/paged-list.machine';
import s from './pagination.module.css';

export type PaginationViewModel = ReturnType<typeof paginationView>;

const NO_PAGES: PagerContext = { page: 1, pageSize: 1, total: 0, windowSize: 5 };

/** What to draw for a paged list actor (paged-list.machine.ts: itself, or a screen machine's `list`). */
export function usePager(ref: AnyActorRef | undefined): PaginationViewModel {
  const context = (useSelector(ref, (snapshot) => snapshot?.context) as PagerContext | undefined) ?? NO_PAGES;
  return paginationView(context);
}

export interface PaginationLabels {
  /** Name of the navigation landmark, e.g. 'Blog pages'. */
  label: string;
  previous: string;
  next: string;
  /** Accessible name of a page button, e.g. (3) => 'Page 3'. */
  page: (page: number) => string;
}

/**
 * Page controls of a paged list (paged-list.machine.ts): Previous, up to 5 page buttons, Next,
 * drawn only when there is more than one page. The current page is marked with
 * aria-current. Texts come from the caller's namespace.
 */
export function Pagination({
  view,
  labels,
  onSelect,
  onPrevious,
  onNext,
  disabled = false,
}: {
  view: PaginationViewModel;
  labels: PaginationLabels;
  onSelect(page: number): void;
  onPrevious(): void;
  onNext(): void;
  disabled?: boolean;
}) {
  if (!view.shown) return null;
  return (
    <nav className={s.pagination} aria-label={labels.label}>
      <button type="button" className={s.step} onClick={onPrevious} disabled={disabled || !view.hasPrevious}>
        {labels.previous}
      </button>
      <ul className={s.pages}>
        {view.pages.map((page) => (
          <li key={page}>
            <button
              type="button"
              className={page === view.page ? `${s.page} ${s.current}` : s.page}
              aria-current={page === view.page ? 'page' : undefined}
              aria-label={labels.page(page)}
              onClick={() => onSelect(page)}
              disabled={disabled}
            >
              {page}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className={s.step} onClick={onNext} disabled={disabled || !view.hasNext}>
        {labels.next}
      </button>
    </nav>
  );
}

/**
 * The pager of a public list page: its paged list actor, the labels of the
 * page's namespace (`pagination.label`, `.previous`, `.next`, `.page`), and a page change brings
 * the top of the page (#main) into view.
 */
export function PagePager({
  pagination,
  ns,
  disabled,
}: {
  pagination: AnyActorRef | undefined;
  ns: string;
  disabled: boolean;
}) {
  const { t } = useTranslation(ns);
  const view = usePager(pagination);
  const go = (
    event: { type: 'page.select'; page: number } | { type: 'page.previous' } | { type: 'page.next' },
  ) => {
    pagination?.send(event);
    document.getElementById('main')?.scrollIntoView({ block: 'start' });
  };
  return (
    <Pagination
      view={view}
      labels={{
        label: t('pagination.label'),
        previous: t('pagination.previous'),
        next: t('pagination.next'),
        page: (page) => t('pagination.page', { page }),
      }}
      disabled={disabled}
      onSelect={(page) => go({ type: 'page.select', page })}
      onPrevious={() => go({ type: 'page.previous' })}
      onNext={() => go({ type: 'page.next' })}
    />
  );
}
