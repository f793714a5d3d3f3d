import { useMachine } from '@xstate/react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Timeline } from '../../../../contract/application-timeline';
import { CANDIDATE_TEMPLATES } from '../../../../contract/candidate-mail';
import { LANGUAGES } from '../../../i18n/languages';
import type { Choice } from '../../../machines/candidate-mail.machine';
import { candidateMailLive } from './candidate-mail.live';
import { RepliesGo } from '../shared/record-timeline';
import s from '../shared/record-timeline.module.css';

const CHOICES: Choice[] = [...CANDIDATE_TEMPLATES, 'blank'];
/** The placeholders named in the help and errors, shown as typed (not filled by i18next). */
const PLACEHOLDER_WORDS = { name: '{{name}}', job: '{{job}}', company: '{{company}}' };

/**
 * "Email the candidate" in an application's detail (docs/decisions/026-application-timeline.md). Thin: the machine
 * (machines/candidate-mail.machine.ts) loads templates, checks, sends and saves. A new `offer`
 * (the application was just moved to Rejected here) opens it on the rejection email and asks.
 */
export function CandidateMail({
  applicationId,
  lang,
  offer,
  onSent,
  repliesTo,
}: {
  /** Where the candidate's reply goes (the timeline says; undefined until it has loaded). */
  repliesTo?: string | null;
  applicationId: number;
  lang: string;
  offer: number;
  onSent(timeline: Timeline): void;
}) {
  const { t, i18n } = useTranslation('admin-inbox');
  // onSent gives the timeline to its machine (a stable `send`): the first one serves for good
  const [machine] = useState(() => candidateMailLive(i18n, onSent));
  const [state, send] = useMachine(machine, { input: { applicationId, lang } });
  const { template, subject, body, errors, failure, templates } = state.context;
  const id = useId();
  const opener = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLSelectElement>(null);

  const offered = useRef(offer);
  useEffect(() => {
    if (offer !== offered.current) {
      offered.current = offer;
      send({ type: 'mail.open', template: 'reject', offer: true });
    }
  }, [offer, send]);

  const closed = state.matches('closed');
  const busy = state.matches('sending') || state.matches('savingTemplate');
  // opened: the first field takes the focus once it is there; closed: the button that opens it
  const wasOpen = useRef(false);
  const focusFirst = useRef(false);
  useEffect(() => {
    if (!closed && !wasOpen.current) focusFirst.current = true;
    if (focusFirst.current && state.matches('composing')) {
      focusFirst.current = false;
      first.current?.focus();
    }
    if (closed && wasOpen.current) opener.current?.focus();
    wasOpen.current = !closed;
  }, [state, closed]);

  if (closed)
    return (
      <div className={s.formActions}>
        <button
          ref={opener}
          type="button"
          className={s.secondary}
          onClick={() => send({ type: 'mail.open', template: 'invite' })}
        >
          {t('mail.write')}
        </button>
      </div>
    );

  const fieldError = (field: 'subject' | 'body') =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} role="alert" className={s.error}>
        {t(`mail.errors.${errors[field]}`, PLACEHOLDER_WORDS)}
      </p>
    ) : null;

  return (
    <form
      className={s.mailForm}
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        send({ type: 'mail.send' });
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !busy) {
          // closes this form, not the modal around it
          e.preventDefault();
          e.stopPropagation();
          send({ type: 'mail.cancel' });
        }
      }}
    >
      <h4 id={`${id}-title`} className={s.mailTitle}>
        {t('mail.title')}
      </h4>
      {state.context.offer && <p className={s.offer}>{t('mail.offer')}</p>}
      {state.matches('loading') && (
        <p role="status" className={s.note}>
          {t('mail.loading')}
        </p>
      )}
      {state.matches('loadFailed') && (
        <p role="alert" className={s.note}>
          {t('mail.loadFailed')}{' '}
          <button type="button" className={s.linkButton} onClick={() => send({ type: 'mail.retry' })}>
            {t('actions.retry')}
          </button>
        </p>
      )}
      {!state.matches('loading') && !state.matches('loadFailed') && (
        <>
          <div className={s.mailChoices}>
            <div className={s.field}>
              <label htmlFor={`${id}-template`}>{t('mail.template')}</label>
              <select
                id={`${id}-template`}
                ref={first}
                value={template}
                disabled={busy}
                onChange={(e) => send({ type: 'mail.template', template: e.target.value as Choice })}
              >
                {CHOICES.map((c) => (
                  <option key={c} value={c}>
                    {t(`mail.templates.${c}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className={s.field}>
              <label htmlFor={`${id}-lang`}>{t('mail.language')}</label>
              <select
                id={`${id}-lang`}
                value={state.context.lang}
                disabled={busy}
                onChange={(e) => send({ type: 'mail.lang', lang: e.target.value })}
              >
                {LANGUAGES.map((l) => (
                  <option key={l.code} value={l.code}>
                    {l.label}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className={s.field}>
            <label htmlFor={`${id}-subject`}>{t('mail.subject')}</label>
            <input
              id={`${id}-subject`}
              value={subject}
              readOnly={busy}
              aria-invalid={!!errors.subject}
              aria-describedby={errors.subject ? `${id}-subject-error` : undefined}
              onChange={(e) => send({ type: 'mail.subject', text: e.target.value })}
            />
            {fieldError('subject')}
          </div>
          <div className={s.field}>
            <label htmlFor={`${id}-body`}>{t('mail.body')}</label>
            <textarea
              id={`${id}-body`}
              rows={9}
              value={body}
              readOnly={busy}
              aria-invalid={!!errors.body}
              aria-describedby={`${errors.body ? `${id}-body-error ` : ''}${id}-hint`}
              onChange={(e) => send({ type: 'mail.body', text: e.target.value })}
            />
            {fieldError('body')}
            <p id={`${id}-hint`} className={s.hint}>
              {t('mail.hint', PLACEHOLDER_WORDS)}{' '}
              <RepliesGo to={repliesTo} goes="mail.repliesTo" nowhere="mail.repliesNowhere" />
            </p>
          </div>
          {failure && (
            <p role="alert" className={s.error}>
              {t(`mail.failures.${failure}`)}
            </p>
          )}
          <div className={s.formActions}>
            <button
              type="button"
              className={s.secondary}
              disabled={busy}
              onClick={() => send({ type: 'mail.cancel' })}
            >
              {t(state.context.offer ? 'mail.skip' : 'actions.cancel')}
            </button>
            {template !== 'blank' && (
              <button
                type="button"
                className={s.secondary}
                disabled={busy}
                onClick={() => send({ type: 'template.save' })}
                title={t('mail.saveTemplateHint', {
                  version: templates.find((x) => x.template === template)?.version ?? 1,
                })}
              >
                {t(state.matches('savingTemplate') ? 'mail.savingTemplate' : 'mail.saveTemplate')}
              </button>
            )}
            <button type="submit" className={s.primary} disabled={busy}>
              {t(state.matches('sending') ? 'mail.sending' : 'mail.send')}
            </button>
          </div>
        </>
      )}
    </form>
  );
}
