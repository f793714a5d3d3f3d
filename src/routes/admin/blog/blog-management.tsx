import { useMachine, useSelector } from '@xstate/react';
import { showingFigures } from '../../../../contract/paging';
import { Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BLOG_PAGE_SIZE,
  BLOG_STATUSES,
  previewOf,
  type BlogPostRow,
  type BlogStatus,
  blogStatusOf,
  DRAFT,
  PUBLISHED,
  SCHEDULED,
} from '../../../../contract/blog';
import { BlogImage, PostDate } from '../../../components/blog/blog-parts';
import OutboxList from '../../../components/outbox-list';
import { PagePager } from '../../../components/pagination';
import { flipped } from '../../../machines/blog-management.machine';
import { EditIcon, PlusIcon, TrashIcon } from '../shared/admin-icons';
import { useAdminSession } from '../shared/admin-context';
import { useTakeUp } from '../shared/queued-changes.live';
import { blogManagementLive } from './blog-management.live';
import { BlogPostDialog, type BlogPostDialogHandle } from './blog-post-dialog';
import { ConfirmDelete } from '../shared/confirm-delete';
import s from './blog-management.module.css';

const NONE: BlogPostRow[] = [];

const BADGE_CLASS: Record<BlogStatus, string> = {
  [PUBLISHED]: `${s.badge} ${s.published}`,
  [DRAFT]: `${s.badge} ${s.draft}`,
  [SCHEDULED]: `${s.badge} ${s.scheduled}`,
};

/** Admin: Blog Management, every post of company 2, drafts included. */
export function BlogManagementScreen() {
  return (
    <Suspense fallback={<p role="status">…</p>}>
      <BlogManagement />
    </Suspense>
  );
}

function BlogManagement() {
  const { t, i18n } = useTranslation('blog-admin');
  // stable for the session (it only sends an event to the admin's auth machine)
  const dialog = useRef<BlogPostDialogHandle>(null);

  const { user } = useAdminSession();
  const [machine] = useState(() => blogManagementLive(i18n, user.user_id));
  const [state, send] = useMachine(machine, { input: { pageSize: BLOG_PAGE_SIZE } });
  // a change made offline that met someone else's: the dialog opens it in its conflict view
  // (a dialog in use keeps its work; the change stays in 'Waiting to send' with Resolve)
  const queuedRef = state.children.queued;
  useTakeUp(queuedRef, dialog, i18n);
  const listRef = state.children.list;
  const list = useSelector(listRef, (snapshot) => snapshot);
  const { target, searchText, search, status: filter } = state.context;
  const rows = list?.context.rows ?? NONE;
  const total = list?.context.total ?? 0;
  const ready = list?.matches('ready') ?? false;
  const failed = list?.matches({ failed: 'settled' }) ?? false;
  const loading = !ready && !failed;
  const settled = !loading && !state.matches({ search: 'debouncing' });
  const changing = (step: 'toggling' | 'deleting') => state.matches({ changes: step });

  return (
    <section className={s.screen} aria-labelledby="blog-management-title">
      <div className={s.top}>
        <h2 id="blog-management-title" className={s.title}>
          {t('title')}
        </h2>
        <button type="button" className={s.primary} onClick={() => dialog.current?.open()}>
          <PlusIcon />
          {t('newPost')}
        </button>
      </div>

      {/* this person's changes made without a connection, sent when it is back */}
      <OutboxList
        kind="blog-post"
        owner={user.user_id}
        onResolve={(id) => queuedRef?.send({ type: 'queued.resolve', id })}
      />

      <div className={s.toolbar}>
        <label htmlFor="blog-search" className="visually-hidden">
          {t('searchLabel')}
        </label>
        <input
          id="blog-search"
          type="search"
          className={s.search}
          placeholder={t('search')}
          value={searchText}
          maxLength={200}
          onChange={(e) => send({ type: 'search.change', text: e.target.value })}
        />
        <label htmlFor="blog-filter" className="visually-hidden">
          {t('filter.label')}
        </label>
        <select
          id="blog-filter"
          className={s.filter}
          value={filter}
          onChange={(e) => send({ type: 'filter.change', status: e.target.value as BlogStatus | '' })}
        >
          <option value="">{t('filter.all')}</option>
          {BLOG_STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`filter.${status}`)}
            </option>
          ))}
        </select>
        {rows.length > 0 && (
          <p className={s.showing} aria-live="polite">
            {t(
              'showing',
              showingFigures(list?.context.page ?? 1, BLOG_PAGE_SIZE, rows.length, total, i18n.language),
            )}
          </p>
        )}
      </div>

      {loading && <p role="status">{t('loading')}</p>}
      {failed && (
        <div className={s.empty} role="alert">
          <p>{t('failed')}</p>
          <button type="button" className={s.secondary} onClick={() => listRef?.send({ type: 'list.retry' })}>
            {t('retry')}
          </button>
        </div>
      )}
      {settled && !failed && rows.length === 0 && search === '' && filter === '' && (
        <div className={s.empty}>
          <p className={s.emptyTitle}>{t('emptyTitle')}</p>
          <button type="button" className={s.primary} onClick={() => dialog.current?.open()}>
            {t('createFirst')}
          </button>
        </div>
      )}
      {settled && !failed && rows.length === 0 && (search !== '' || filter !== '') && (
        <div className={s.empty}>
          <p className={s.emptyTitle}>{t('noResults')}</p>
          <button
            type="button"
            className={s.secondary}
            onClick={() => {
              send({ type: 'search.clear' });
              send({ type: 'filter.change', status: '' });
            }}
          >
            {t('clearSearch')}
          </button>
        </div>
      )}

      {!loading && rows.length > 0 && (
        <ul className={s.grid} aria-label={t('listLabel')}>
          {rows.map((post) => (
            <PostCard
              key={post.blog_id}
              post={post}
              lang={i18n.language}
              busy={target?.blog_id === post.blog_id && (changing('toggling') || changing('deleting'))}
              canChange={ready && state.matches({ changes: 'idle' })}
              onToggle={() => send({ type: 'status.toggle', post })}
              onEdit={() => dialog.current?.open(post)}
              onDelete={() => send({ type: 'delete.ask', post })}
            />
          ))}
        </ul>
      )}

      <PagePager pagination={listRef} ns="blog-admin" disabled={!ready} />

      <BlogPostDialog
        ref={dialog}
        onSaved={(row, created) =>
          row ? send({ type: 'post.saved', row, created }) : send({ type: 'list.reload' })
        }
      />

      <ConfirmDelete
        open={state.matches({ changes: 'confirmingDelete' }) || changing('deleting')}
        deleting={changing('deleting')}
        title={t('deleteTitle')}
        question={t('confirmDelete')}
        which={target?.title}
        labels={{ cancel: t('cancel'), delete: t('deleteAction'), deleting: t('deleting') }}
        send={send}
      />
    </section>
  );
}

function PostCard({
  post,
  lang,
  busy,
  canChange,
  onToggle,
  onEdit,
  onDelete,
}: {
  post: BlogPostRow;
  lang: string;
  busy: boolean;
  canChange: boolean;
  onToggle(): void;
  onEdit(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation('blog-admin');
  const headingId = `admin-post-${post.blog_id}-title`;
  const status = blogStatusOf(post.status);
  const goesLive =
    status === SCHEDULED && post.publish_at
      ? new Date(post.publish_at).toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' })
      : null;
  return (
    <li className={s.card} aria-labelledby={headingId} aria-busy={busy || undefined}>
      <div className={s.cardTop}>
        <button
          type="button"
          className={BADGE_CLASS[status]}
          onClick={onToggle}
          disabled={!canChange}
          aria-label={t('statusButton', {
            status: t(`status.${status}`),
            title: post.title,
            next: t(`status.${flipped(status)}`),
          })}
        >
          {t(`status.${status}`)}
        </button>
        <div className={s.icons}>
          <button
            type="button"
            className={s.icon}
            onClick={onEdit}
            aria-label={t('edit', { title: post.title })}
            title={t('edit', { title: post.title })}
          >
            <EditIcon />
          </button>
          <button
            type="button"
            className={`${s.icon} ${s.iconDanger}`}
            onClick={onDelete}
            disabled={!canChange}
            aria-label={t('delete', { title: post.title })}
            title={t('delete', { title: post.title })}
          >
            <TrashIcon />
          </button>
        </div>
      </div>
      <BlogImage src={post.image_url} alt="" noImage={t('noImage')} />
      <h3 id={headingId} className={s.cardTitle}>
        {post.title}
      </h3>
      {goesLive && (
        <p className={s.goesLive}>
          <time dateTime={post.publish_at ?? undefined}>{t('scheduledFor', { when: goesLive })}</time>
        </p>
      )}
      <p className={s.meta}>
        <span>
          <PostDate text={post.publication_date} lang={lang} />
        </span>
        <span>{post.read_time}</span>
      </p>
      <p className={s.excerpt}>{post.excerpt}</p>
      <p className={s.previewText}>{previewOf(post.content).text}</p>
    </li>
  );
}
