import { useMachine } from '@xstate/react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTE_MAX, type Colleague } from '../../../../contract/application-timeline';
import { applicationTimelineLive } from '../shared/record-timeline.live';
import { CandidateMail } from './candidate-mail';
import { TimelineEvents } from '../shared/record-timeline';
import s from '../shared/record-timeline.module.css';

/** The `@name` being typed just before the caret, if any: where it starts and what is typed. */
export function mentionAt(text: string, caret: number): { start: number; typed: string } | null {
  const m = /(?:^|[^\p{L}\p{N}._+-])@([\p{L}\p{N}._+-]*)$/u.exec(text.slice(0, caret));
  if (!m) return null;
  return { start: caret - m[1]!.length - 1, typed: m[1]!.toLowerCase() };
}

/** Colleagues whose handle or name starts (a word of it) with what is typed, at most six. */
export function suggestionsFor(colleagues: Colleague[], typed: string): Colleague[] {
  return colleagues
    .filter(
      (c) =>
        c.handle.startsWith(typed) ||
        c.name
          .toLowerCase()
          .split(/\s+/)
          .some((w) => w.startsWith(typed)),
    )
    .slice(0, 6);
}

/**
 * An application's timeline and note box, in its detail modal (docs/decisions/026-application-timeline.md). Thin: the machine
 * (machines/application-timeline.machine.ts) loads, refreshes and saves; `version` is the
 * application's version, and a new one (a status changed here or by a colleague) refreshes it.
 * Staff who manage applications write to the candidate from here (candidate-mail.tsx).
 */
export function ApplicationTimeline({
  applicationId,
  version,
  lang: candidateLang,
  canManage,
  offerRejection,
}: {
  applicationId: number;
  version: number;
  /** The candidate's page language: the default of an email to them. */
  lang: string;
  /** Whether the reader may write to the candidate (applications.manage). */
  canManage: boolean;
  /** One more each time the application is moved to Rejected here: the rejection email is offered. */
  offerRejection: number;
}) {
  const { t, i18n } = useTranslation('admin-inbox');
  const [machine] = useState(() => applicationTimelineLive(i18n));
  const [state, send] = useMachine(machine, { input: { recordId: applicationId, maxLength: NOTE_MAX } });
  const { timeline, draft, error } = state.context;
  const ids = { heading: useId(), note: useId(), hint: useId(), error: useId() };
  const area = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(0);
  const saving = state.matches({ ready: { note: 'saving' } });

  const firstVersion = useRef(version);
  useEffect(() => {
    if (version !== firstVersion.current) send({ type: 'timeline.refresh' });
  }, [version, send]);

  const mention = mentionAt(draft, caret);
  const suggestions = mention && timeline ? suggestionsFor(timeline.colleagues, mention.typed) : [];
  const insertMention = (handle: string) => {
    if (!mention) return;
    const before = `${draft.slice(0, mention.start)}@${handle} `;
    send({ type: 'note.change', text: before + draft.slice(caret) });
    setCaret(before.length);
    requestAnimationFrame(() => {
      area.current?.focus();
      area.current?.setSelectionRange(before.length, before.length);
    });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      send({ type: 'note.submit' });
    }
  };

  return (
    <section className={s.section} aria-labelledby={ids.heading}>
      <h3 id={ids.heading} className={s.heading}>
        {t('timeline.title')}
      </h3>
      {canManage && (
        <CandidateMail
          applicationId={applicationId}
          lang={candidateLang}
          offer={offerRejection}
          repliesTo={timeline?.replies_to}
          onSent={(timeline) => send({ type: 'timeline.set', timeline })}
        />
      )}
      <TimelineEvents
        loading={state.matches('loading')}
        failed={state.matches('failed')}
        timeline={timeline}
        texts="timeline"
        onRetry={() => send({ type: 'timeline.retry' })}
      />
      {state.matches('ready') && (
        <form
          className={s.form}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            send({ type: 'note.submit' });
          }}
        >
          <label htmlFor={ids.note}>{t('timeline.noteLabel')}</label>
          <textarea
            id={ids.note}
            ref={area}
            rows={3}
            value={draft}
            readOnly={saving}
            aria-invalid={error === 'noteEmpty' || error === 'noteTooLong'}
            aria-describedby={error ? `${ids.error} ${ids.hint}` : ids.hint}
            onChange={(e) => {
              send({ type: 'note.change', text: e.target.value });
              setCaret(e.target.selectionStart);
            }}
            onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
            onKeyDown={onKeyDown}
          />
          {suggestions.length > 0 && (
            <ul className={s.suggestions} aria-label={t('timeline.mentionLabel')}>
              {suggestions.map((c) => (
                <li key={`${c.handle}-${c.name}`}>
                  <button type="button" className={s.suggestion} onClick={() => insertMention(c.handle)}>
                    @{c.handle}
                    {c.name !== c.handle && !c.name.startsWith(`${c.handle}@`) ? ` (${c.name})` : ''}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {error && (
            <p id={ids.error} role="alert" className={s.error}>
              {t(`timeline.errors.${error}`)}
            </p>
          )}
          <p id={ids.hint} className={s.hint}>
            {t('timeline.noteHint')}
          </p>
          <div className={s.formActions}>
            <button type="submit" className={s.primary} disabled={saving}>
              {t(saving ? 'timeline.adding' : 'timeline.add')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
