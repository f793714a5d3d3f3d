import { diffWords } from 'diff';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { RevisionRow } from '../../../../contract/revisions';
import type { RevisionHistoryEvent, revisionHistoryMachine } from '../../../machines/revision-history.machine';
import type { SnapshotFrom } from 'xstate';
import s from './history.module.css';

/** A field's value as a person reads it (rich text as text, a job type by its name). */
export type ReadValue = (field: string, value: string | number | undefined) => string;

/**
 * The History view inside an editor (revision-history.machine.ts): the versions kept, newest
 * first; one version's changes beside the one before it as a word diff; "Restore this version".
 * The editor's form stays behind it, untouched, until the person goes back or restores.
 */
export function HistoryPanel({
  state,
  send,
  labelOf,
  readable,
}: {
  state: SnapshotFrom<typeof revisionHistoryMachine>;
  send(event: RevisionHistoryEvent): void;
  labelOf(field: string): string;
  readable: ReadValue;
}) {
  const { t, i18n } = useTranslation('admin');
  const heading = useRef<HTMLHeadingElement>(null);
  const showing = state.matches('showing') || state.matches('restoring');
  // each view starts at its heading, so a keyboard or screen reader user knows where they are
  useEffect(() => heading.current?.focus(), [showing]);
  const when = (at: string) =>
    new Date(at).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const who = (row: RevisionRow) => row.actor_email ?? t('history.system');
  // a revision kept as the record was before history began changed nothing: show its fields
  const { revisions, selected } = state.context;
  const newest = revisions[0]?.revision_id;

  return (
    <section className={s.panel} aria-labelledby="history-title">
      <div className={s.head}>
        <h3 id="history-title" className={s.title} ref={heading} tabIndex={-1}>
          {showing && selected
            ? t('history.version', { when: when(selected.revision.at), who: who(selected.revision) })
            : t('history.title')}
        </h3>
        <button type="button" className={s.secondary} onClick={() => send({ type: 'history.close' })}>
          {t('history.back')}
        </button>
      </div>

      {(state.matches('loading') || state.matches('reading')) && <p role="status">{t('history.loading')}</p>}
      {state.matches('failed') && (
        <div role="alert">
          <p>{t('history.failed')}</p>
          <button type="button" className={s.secondary} onClick={() => send({ type: 'history.retry' })}>
            {t('actions.retry')}
          </button>
        </div>
      )}
      {state.matches('listing') && revisions.length === 0 && <p>{t('history.empty')}</p>}
      {state.matches('listing') && revisions.length > 0 && (
        <ol className={s.list} aria-label={t('history.versions')}>
          {revisions.map((row) => (
            <li key={row.revision_id}>
              <button
                type="button"
                className={s.entry}
                onClick={() => send({ type: 'revision.select', revisionId: row.revision_id })}
              >
                <span className={s.when}>
                  {when(row.at)} · {who(row)}
                  {row.revision_id === newest && ` · ${t('history.current')}`}
                </span>
                <span className={s.what}>{summary(row)}</span>
              </button>
            </li>
          ))}
        </ol>
      )}

      {showing && selected && (
        <>
          <p className={s.what}>{summary(selected.revision)}</p>
          <dl className={s.fields}>
            {(selected.revision.changed.length > 0 ? selected.revision.changed : Object.keys(selected.fields))
              .filter((field) => field in selected.fields)
              .map((field) => (
                <div key={field} className={s.field}>
                  <dt>{labelOf(field)}</dt>
                  <dd>
                    <WordDiff
                      before={selected.previous ? readable(field, selected.previous[field]) : null}
                      after={readable(field, selected.fields[field])}
                    />
                  </dd>
                </div>
              ))}
          </dl>
          <div className={s.actions}>
            <button
              type="button"
              className={s.secondary}
              onClick={() => send({ type: 'revision.back' })}
              disabled={state.matches('restoring')}
            >
              {t('history.all')}
            </button>
            {selected.revision.revision_id !== newest && (
              <button
                type="button"
                className={s.primary}
                onClick={() => send({ type: 'revision.restore' })}
                disabled={state.matches('restoring')}
              >
                {state.matches('restoring') ? t('history.restoring') : t('history.restore')}
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );

  function summary(row: RevisionRow) {
    if (row.restored_from !== null) return t('history.restoredFrom');
    if (row.changed.length === 0 && row.actor_email === null) return t('history.baseline');
    if (row.version === 1) return t('history.created');
    return t('history.changed', { fields: row.changed.map(labelOf).join(', ') });
  }
}

/** What changed between two texts, word by word (the first version: the text as it was). */
function WordDiff({ before, after }: { before: string | null; after: string }) {
  const { t } = useTranslation('admin');
  if (before === null) return <>{after}</>;
  return (
    <>
      {diffWords(before, after).map((part, i) =>
        part.removed ? (
          <del key={i}>
            <span className={s.hidden}>{t('history.removed')} </span>
            {part.value}
          </del>
        ) : part.added ? (
          <ins key={i}>
            <span className={s.hidden}>{t('history.added')} </span>
            {part.value}
          </ins>
        ) : (
          <span key={i}>{part.value}</span>
        ),
      )}
    </>
  );
}
