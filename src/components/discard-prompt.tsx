import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import s from './modal.module.css';

/**
 * 'Discard what you typed?' inside a dialog whose form has input, after a click on the backdrop
 * or Escape (the apply, job and blog dialogs alike). "Keep editing" takes the focus, so Enter or
 * Escape keeps the text; only "Discard" throws it away.
 */
export function DiscardPrompt({ onKeep, onDiscard }: { onKeep(): void; onDiscard(): void }) {
  const { t } = useTranslation('common');
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  return (
    <div className={s.discard} role="alert">
      <p className={s.discardQuestion}>{t('discard.question')}</p>
      <div className={s.discardActions}>
        <button type="button" ref={keep} className={s.discardKeep} onClick={onKeep}>
          {t('discard.keep')}
        </button>
        <button type="button" className={s.discardConfirm} onClick={onDiscard}>
          {t('discard.confirm')}
        </button>
      </div>
    </div>
  );
}

/**
 * 'Restore unsaved changes from {time}?' at the top of a form that found its own draft on the
 * device (a reload, a closed or crashed tab, a session that ran out). Restore puts the draft in the
 * form; Dismiss drops it.
 */
export function RestorePrompt({
  savedAt,
  onRestore,
  onIgnore,
}: {
  savedAt: string;
  onRestore(): void;
  onIgnore(): void;
}) {
  const { t, i18n } = useTranslation('common');
  const time = new Date(savedAt).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <div className={s.discard} role="status">
      <p className={s.discardQuestion}>{t('draft.offer', { time })}</p>
      <div className={s.discardActions}>
        <button type="button" className={s.discardKeep} onClick={onRestore}>
          {t('draft.restore')}
        </button>
        <button type="button" className={s.discardConfirm} onClick={onIgnore}>
          {t('draft.ignore')}
        </button>
      </div>
    </div>
  );
}

export type DraftPromptEvent = {
  type: 'draft.restore' | 'draft.ignore' | 'discard.cancel' | 'discard.confirm';
};

/**
 * The two questions of a dialog that keeps a draft on the device (the job form, the blog post):
 * restore the draft found when it opened (`offered`), and throw away a change (`confirming`).
 * Each answer is the event its machine expects.
 */
export function DraftPrompts({
  offered,
  confirming,
  send,
}: {
  offered: { savedAt: string } | null | undefined;
  confirming: boolean;
  send(event: DraftPromptEvent): void;
}) {
  return (
    <>
      {offered && (
        <RestorePrompt
          savedAt={offered.savedAt}
          onRestore={() => send({ type: 'draft.restore' })}
          onIgnore={() => send({ type: 'draft.ignore' })}
        />
      )}
      {confirming && (
        <DiscardPrompt
          onKeep={() => send({ type: 'discard.cancel' })}
          onDiscard={() => send({ type: 'discard.confirm' })}
        />
      )}
    </>
  );
}
