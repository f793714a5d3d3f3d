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
