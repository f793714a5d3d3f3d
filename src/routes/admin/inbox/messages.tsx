import { useMachine, useSelector } from '@xstate/react';
import { mailtoHref } from '../../../components/mailto-href';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGE_PAGE_SIZE, type ContactMessageRow } from '../../../../contract/admin-messages';
import { isIdText } from '../../../../contract/ids';
import type { ShowFilter } from '../../../machines/messages-list.machine';
import { useAdminSession } from '../shared/admin-context';
import { ConfirmDelete } from '../shared/confirm-delete';
import { messagesLive } from './messages.live';
import { MessageThread } from './message-thread';
import { formatDay, Pager, showingFigures } from '../shared/pager';
import s from '../shared/inbox.module.css';

const NONE: ContactMessageRow[] = [];

/** Messages: what people sent through the contact form, newest first; mark handled, delete. */
export function MessagesScreen() {
  const { t, i18n } = useTranslation('admin-inbox');
  const { can } = useAdminSession();
  const id = useId();

  const [params, setParams] = useSearchParams();
  // a notice's link, /admin/messages?message=12: that message alone, its thread open
  const [linked] = useState(() => {
    const raw = params.get('message') ?? '';
    return isIdText(raw) ? Number(raw) : 0;
  });
  const [machine] = useState(() => messagesLive(i18n));
  const [state, send] = useMachine(machine, { input: { pageSize: MESSAGE_PAGE_SIZE, message: linked } });
  const { searchText, show, target, assignee, assignees, message } = state.context;
  const { user } = useAdminSession();
  /** Messages whose thread is open (view state only). */
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set(linked ? [linked] : []));
  // the address names the one message while it is shown alone
  const showAll = () => {
    send({ type: 'message.clear' });
    setParams(
      (now) => {
        const next = new URLSearchParams(now);
        next.delete('message');
        return next;
      },
      { replace: true },
    );
  };
  const toggle = (messageId: number) =>
    setOpen((now) => {
      const next = new Set(now);
      if (!next.delete(messageId)) next.add(messageId);
      return next;
    });
  const assigning = state.matches({ changes: 'assigning' });
  const listRef = state.children.list;
  const list = useSelector(listRef, (snapshot) => snapshot);
  const rows = list?.context.rows ?? NONE;
  const figures = showingFigures(
    list?.context.page ?? 1,
    MESSAGE_PAGE_SIZE,
    rows.length,
    list?.context.total ?? 0,
    i18n.language,
  );
  const listed = (list?.matches('ready') ?? false) && !state.matches({ search: 'debouncing' });
  const savingAny = state.matches({ changes: 'saving' });
  const deleting = state.matches({ changes: 'deleting' });
  /** A change of a message is under way: the others' buttons wait. */
  const busy = !state.matches({ changes: 'idle' });
  const canManage = can('messages.manage');

  return (
    <section className={s.screen} aria-labelledby="messages-title">
      <div className={s.top}>
        <h2 id="messages-title" className={s.title}>
          {t('messages.title')}
        </h2>
      </div>

      <form
        className={s.messageFilters}
        role="search"
        aria-label={t('messages.filtersLabel')}
        onSubmit={(e) => e.preventDefault()}
      >
        <div className={s.field}>
          <label htmlFor={`${id}-search`}>{t('messages.search')}</label>
          <input
            id={`${id}-search`}
            type="search"
            value={searchText}
            maxLength={200}
            placeholder={t('messages.searchPlaceholder')}
            onChange={(e) =>
              send(
                e.target.value ? { type: 'search.change', text: e.target.value } : { type: 'search.clear' },
              )
            }
          />
        </div>
        <div className={s.field}>
          <label htmlFor={`${id}-show`}>{t('messages.show')}</label>
          <select
            id={`${id}-show`}
            value={show}
            onChange={(e) => send({ type: 'show.change', show: e.target.value as ShowFilter })}
          >
            <option value="all">{t('messages.showAll')}</option>
            <option value="open">{t('messages.showOpen')}</option>
            <option value="handled">{t('messages.showHandled')}</option>
          </select>
        </div>
        <div className={s.field}>
          <label htmlFor={`${id}-assignee`}>{t('messages.assignedFilter')}</label>
          <select
            id={`${id}-assignee`}
            value={assignee}
            onChange={(e) => send({ type: 'assignee.filter', assignee: e.target.value })}
          >
            <option value="">{t('messages.assignedAnyone')}</option>
            <option value="me">{t('messages.assignedMe')}</option>
            <option value="none">{t('messages.assignedNobody')}</option>
            {assignees
              .filter((a) => a.user_id !== user?.user_id)
              .map((a) => (
                <option key={a.user_id} value={String(a.user_id)}>
                  {a.name}
                </option>
              ))}
          </select>
        </div>
      </form>

      {(!list || list.matches('loading') || state.matches({ search: 'debouncing' })) && (
        <p role="status" className={s.status}>
          {t('messages.loading')}
        </p>
      )}
      {list?.matches('failed') && (
        <div role="alert" className={s.failed}>
          <p>{t('messages.failed')}</p>
          <button type="button" className={s.secondary} onClick={() => listRef?.send({ type: 'list.retry' })}>
            {t('actions.retry')}
          </button>
        </div>
      )}
      {message > 0 && (
        <p className={s.onlyOne} role="status">
          <span>{t('messages.onlyOne')}</span>
          <button type="button" className={s.secondary} onClick={showAll}>
            {t('messages.showEvery')}
          </button>
        </p>
      )}
      {listed && rows.length === 0 && <p className={s.empty}>{t('messages.empty')}</p>}
      {listed && rows.length > 0 && (
        <>
          <p className={s.showing} aria-live="polite">
            {t('messages.showing', figures)}
          </p>
          <ul className={s.messages} aria-labelledby="messages-title">
            {rows.map((m) => {
              const headingId = `${id}-m${m.message_id}`;
              const saving = savingAny && target?.message_id === m.message_id;
              return (
                <li
                  key={m.message_id}
                  className={s.message}
                  data-handled={m.handled}
                  aria-labelledby={headingId}
                >
                  <div className={s.messageHead}>
                    <h3 id={headingId}>{m.name}</h3>
                    <span className={m.handled ? s.handledBadge : s.openBadge}>
                      {t(m.handled ? 'messages.handled' : 'messages.open')}
                    </span>
                  </div>
                  <p className={s.messageMeta}>
                    <a href={mailtoHref(m.email)}>{m.email}</a>
                    {m.company && (
                      <span>
                        <span className={s.sr}>{t('messages.company')}: </span>
                        {m.company}
                      </span>
                    )}
                    <time dateTime={m.created_at}>{formatDay(m.created_at, i18n.language, true)}</time>
                  </p>
                  <p className={s.messageText}>{m.message}</p>
                  {canManage ? (
                    <div className={s.assignRow}>
                      <label htmlFor={`${headingId}-assignee`}>{t('messages.assignedTo')}</label>
                      <select
                        id={`${headingId}-assignee`}
                        value={m.assignee_id ?? ''}
                        disabled={busy}
                        onChange={(e) =>
                          send({
                            type: 'assignee.change',
                            row: m,
                            userId: e.target.value ? Number(e.target.value) : null,
                          })
                        }
                      >
                        <option value="">{t('messages.nobody')}</option>
                        {m.assignee_id != null && !assignees.some((a) => a.user_id === m.assignee_id) && (
                          <option value={m.assignee_id}>{m.assignee}</option>
                        )}
                        {assignees.map((a) => (
                          <option key={a.user_id} value={a.user_id}>
                            {a.name}
                          </option>
                        ))}
                      </select>
                      {assigning && target?.message_id === m.message_id && (
                        <span role="status" className={s.saving}>
                          {t('messages.saving')}
                        </span>
                      )}
                    </div>
                  ) : (
                    m.assignee && (
                      <p className={s.messageMeta}>{t('messages.assignedToName', { name: m.assignee })}</p>
                    )
                  )}
                  <div className={s.messageActions}>
                    <button
                      type="button"
                      className={s.small}
                      aria-expanded={open.has(m.message_id)}
                      aria-controls={`${headingId}-thread`}
                      aria-describedby={headingId}
                      onClick={() => toggle(m.message_id)}
                    >
                      {m.replies
                        ? t('messages.repliesCount', { count: m.replies })
                        : t(canManage ? 'messages.reply' : 'messages.thread')}
                    </button>
                  </div>
                  <div id={`${headingId}-thread`} hidden={!open.has(m.message_id)}>
                    {open.has(m.message_id) && (
                      <MessageThread
                        messageId={m.message_id}
                        writer={m.name}
                        canReply={canManage}
                        replies={m.replies ?? 0}
                        onReplies={(count) =>
                          listRef?.send({
                            type: 'row.saved',
                            row: { ...m, replies: count },
                            absent: 'reload',
                          })
                        }
                        onAnswered={(row) => listRef?.send({ type: 'row.saved', row, absent: 'reload' })}
                      />
                    )}
                  </div>
                  {canManage && (
                    <div className={s.messageActions}>
                      <button
                        type="button"
                        className={s.small}
                        disabled={busy}
                        aria-describedby={headingId}
                        onClick={() => send({ type: 'handled.toggle', row: m })}
                      >
                        {t(
                          saving
                            ? 'messages.saving'
                            : m.handled
                              ? 'messages.markOpen'
                              : 'messages.markHandled',
                        )}
                      </button>
                      <button
                        type="button"
                        className={s.smallDanger}
                        disabled={busy}
                        aria-label={t('messages.deleteOf', { name: m.name })}
                        onClick={() => send({ type: 'delete.ask', row: m })}
                      >
                        {t('messages.delete')}
                      </button>
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
      <Pager pagination={listRef} label={t('pager.messages')} />
      <ConfirmDelete
        open={state.matches({ changes: 'confirmingDelete' }) || deleting}
        deleting={deleting}
        title={t('messages.deleteTitle')}
        question={t('messages.deleteQuestion')}
        which={target ? `${target.name} <${target.email}>` : undefined}
        labels={{
          cancel: t('actions.cancel'),
          delete: t('messages.delete'),
          deleting: t('messages.deleting'),
        }}
        send={send}
      />
    </section>
  );
}
