import { useMachine } from '@xstate/react';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { REPLY_MAX, type ContactMessageRow } from '../../../../contract/admin-messages';
import { RepliesGo, TimelineEvents } from '../shared/record-timeline';
import { messageThreadLive } from '../shared/record-timeline.live';
import s from '../shared/record-timeline.module.css';

/**
 * A contact message's thread in the inbox (docs/decisions/026-application-timeline.md): received, assignments and the replies sent
 * to its writer with their delivery state, and for staff who manage messages a reply box. Thin:
 * the record timeline machine (machines/record-timeline.machine.ts) loads and sends.
 */
export function MessageThread({
  messageId,
  writer,
  canReply,
  replies,
  onReplies,
  onAnswered,
}: {
  messageId: number;
  writer: string;
  canReply: boolean;
  /** How many replies the list says it had; `onReplies` tells it when the thread knows more. */
  replies: number;
  onReplies(count: number): void;
  /** A reply was sent: the message as the server now has it (handled, at its new version). */
  onAnswered(row: ContactMessageRow): void;
}) {
  const { t, i18n } = useTranslation('admin-inbox');
  const [machine] = useState(() => messageThreadLive(i18n));
  const [state, send, actor] = useMachine(machine, { input: { recordId: messageId, maxLength: REPLY_MAX } });
  useEffect(() => {
    const saved = actor.on('note.saved', ({ row }) => row && onAnswered(row as ContactMessageRow));
    return () => saved.unsubscribe();
  }, [actor, onAnswered]);
  const { timeline, draft, error } = state.context;
  const id = useId();
  const sending = state.matches({ ready: { note: 'saving' } });
  const sent = timeline?.events.filter((e) => e.kind === 'mail').length;
  useEffect(() => {
    if (sent !== undefined && sent !== replies) onReplies(sent);
  }, [sent, replies, onReplies]);
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      send({ type: 'note.submit' });
    }
  };

  return (
    <section className={s.section} aria-label={t('thread.label', { name: writer })}>
      <TimelineEvents
        loading={state.matches('loading')}
        failed={state.matches('failed')}
        timeline={timeline}
        texts="thread"
        onRetry={() => send({ type: 'timeline.retry' })}
      />
      {canReply && state.matches('ready') && (
        <form
          className={s.form}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            send({ type: 'note.submit' });
          }}
        >
          <label htmlFor={`${id}-reply`}>{t('thread.replyLabel', { name: writer })}</label>
          <textarea
            id={`${id}-reply`}
            rows={4}
            value={draft}
            readOnly={sending}
            aria-invalid={error === 'noteEmpty' || error === 'noteTooLong'}
            aria-describedby={error ? `${id}-error ${id}-hint` : `${id}-hint`}
            onChange={(e) => send({ type: 'note.change', text: e.target.value })}
            onKeyDown={onKeyDown}
          />
          {error && (
            <p id={`${id}-error`} role="alert" className={s.error}>
              {t(`thread.errors.${error}`)}
            </p>
          )}
          <p id={`${id}-hint`} className={s.hint}>
            {t('thread.hint')}{' '}
            <RepliesGo to={timeline?.replies_to} goes="thread.repliesTo" nowhere="thread.repliesNowhere" />
          </p>
          <div className={s.formActions}>
            <button type="submit" className={s.primary} disabled={sending}>
              {t(sending ? 'thread.sending' : 'thread.send')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
