import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import s from './conflict-prompt.module.css';

export interface ConflictField {
  /** The field's label, in the reader's language. */
  label: string;
  /** Their text and mine, as a person reads them (rich text as plain text). */
  theirs: string;
  yours: string;
}

/**
 * '<name> changed this at 10:42 while you were editing' at the top of an editor whose save met
 * someone else's (docs/decisions/022-versions-and-conflicts.md): the fields both changed, theirs
 * beside yours, and the choices; what was typed stays in the form until one is made. The first
 * choice takes the focus.
 */
export function ConflictPrompt({
  changedBy,
  changedAt,
  fields,
  canKeepBoth,
  onKeepMine,
  onTakeTheirs,
  onKeepBoth,
}: {
  changedBy: string | null;
  changedAt: string | null;
  fields: ConflictField[];
  canKeepBoth: boolean;
  onKeepMine(): void;
  onTakeTheirs(): void;
  onKeepBoth(): void;
}) {
  const { t, i18n } = useTranslation('common');
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  const time = changedAt
    ? new Date(changedAt).toLocaleTimeString(i18n.language, { hour: '2-digit', minute: '2-digit' })
    : '';
  return (
    <section className={s.conflict} role="alert" aria-labelledby="conflict-title">
      <h3 id="conflict-title" className={s.title}>
        {t('conflict.changedBy', { name: changedBy ?? t('conflict.someone'), time })}
      </h3>
      <p className={s.help}>{t('conflict.help')}</p>
      <dl className={s.fields}>
        {fields.map((field) => (
          <div key={field.label} className={s.field}>
            <dt className={s.label}>{field.label}</dt>
            <dd className={s.versions}>
              <div className={s.version}>
                <span className={s.whose}>{t('conflict.theirs')}</span>
                <p className={s.text}>{field.theirs}</p>
              </div>
              <div className={s.version}>
                <span className={s.whose}>{t('conflict.yours')}</span>
                <p className={s.text}>{field.yours}</p>
              </div>
            </dd>
          </div>
        ))}
      </dl>
      <div className={s.actions}>
        <button type="button" ref={first} className={s.primary} onClick={onKeepMine}>
          {t('conflict.keepMine')}
        </button>
        <button type="button" className={s.secondary} onClick={onTakeTheirs}>
          {t('conflict.takeTheirs')}
        </button>
        {canKeepBoth && (
          <button type="button" className={s.secondary} onClick={onKeepBoth}>
            {t('conflict.keepBoth')}
          </button>
        )}
      </div>
    </section>
  );
}
