import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import {
  RESUME_ACCEPT,
  NAME_MAX,
  ADDRESS_MAX,
  DEFAULT_PHONE_COUNTRY,
  PHONE_MAX,
} from '../../../contract/applications';
import { EMAIL_MAX } from '../../../contract/form-rules';
import { DiscardPrompt } from '../../components/discard-prompt';
import { Modal } from '../../components/modal';
import type { ApplyContext, ApplyEvent, FieldName } from '../../machines/apply-form.machine';
import s from './apply-modal.module.css';

export const fieldId = (name: FieldName | 'job_id' | 'contact_country') => `apply-${name.replace('_', '-')}`;
const errorId = (name: FieldName | 'job_id') => `${fieldId(name)}-error`;

function formatSize(bytes: number, lang: string): string {
  const mb = bytes / (1024 * 1024);
  const format = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
  return mb >= 0.1 ? `${format.format(mb)} MB` : `${format.format(Math.max(1, Math.round(bytes / 1024)))} KB`;
}

/**
 * The phone number's country: every country with its calling code once the phone rules have
 * loaded ('India (+91)', named in the page's language, sorted by name), and until then the one
 * chosen, so the field never waits.
 */
function CountrySelect({
  value,
  phone,
  lang,
  label,
  onChange,
}: {
  value: string;
  phone: ApplyContext['phone'];
  lang: string;
  label: string;
  onChange: (code: string) => void;
}) {
  const chosen = value || DEFAULT_PHONE_COUNTRY;
  const options = useMemo(() => {
    let names: Intl.DisplayNames | undefined;
    try {
      names = new Intl.DisplayNames([lang, 'en'], { type: 'region' });
    } catch {
      names = undefined;
    }
    const nameOf = (code: string) => {
      try {
        return names?.of(code) ?? code;
      } catch {
        return code;
      }
    };
    const countries = phone?.countries ?? [{ code: chosen, callingCode: '' }];
    return countries
      .map(({ code, callingCode }) => ({
        code,
        label: callingCode ? `${nameOf(code)} (+${callingCode})` : nameOf(code),
      }))
      .sort((a, b) => a.label.localeCompare(b.label, lang));
  }, [phone, lang, chosen]);
  return (
    <select
      id={fieldId('contact_country')}
      className={s.country}
      aria-label={label}
      value={chosen}
      onChange={(e) => onChange(e.target.value)}
    >
      {options.map((o) => (
        <option key={o.code} value={o.code}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/**
 * The Apply modal: state in, events out (apply-form.machine.ts owns every rule and effect).
 * Native validation is off (noValidate): the spec's messages are shown under each field, linked
 * with aria-describedby and announced through aria-invalid + the message text.
 */
export function ApplyModal({
  open,
  submitting,
  askingDiscard,
  context,
  send,
}: {
  open: boolean;
  submitting: boolean;
  /** 'Discard what you typed?' is shown (a backdrop click or Escape with input). */
  askingDiscard: boolean;
  context: ApplyContext;
  send: (event: ApplyEvent) => void;
}) {
  const { t, i18n } = useTranslation('careers');
  const { fields, errors, job, progress } = context;
  const percent = progress && progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;

  // The message line keeps its height when empty: a message appearing on blur must not move the
  // button the pointer is pressing (the click would land beside it).
  const error = (name: FieldName | 'job_id') => (
    <p id={errorId(name)} className={name === 'job_id' ? s.formError : s.error}>
      {errors[name] ? t(`errors.${errors[name]}`) : ''}
    </p>
  );

  const describedBy = (name: FieldName, hint?: string) =>
    [hint, errors[name] ? errorId(name) : undefined].filter(Boolean).join(' ') || undefined;

  const textField = (
    name: 'full_name' | 'email' | 'contact_number',
    label: string,
    props: {
      type: string;
      autoComplete: string;
      maxLength: number;
      inputMode?: 'email' | 'numeric' | 'tel' | 'text';
    },
    hint?: ReactNode,
    /** Beside the input, before it (the phone number's country). */
    before?: ReactNode,
  ) => {
    const input = (
      <input
        id={fieldId(name)}
        name={name}
        {...props}
        required
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={describedBy(name, hint ? `${fieldId(name)}-hint` : undefined)}
        value={fields[name]}
        onChange={(e) => send({ type: 'field.change', name, value: e.target.value })}
        onBlur={() => send({ type: 'field.blur', name })}
      />
    );
    return (
      <div className={s.field}>
        <label htmlFor={fieldId(name)}>
          {label}
          <span className={s.star} aria-hidden="true">
            *
          </span>
        </label>
        {hint && (
          <p id={`${fieldId(name)}-hint`} className={s.hint}>
            {hint}
          </p>
        )}
        {before ? (
          <div className={s.row}>
            {before}
            {input}
          </div>
        ) : (
          input
        )}
        {error(name)}
      </div>
    );
  };

  return (
    <Modal
      open={open}
      title={t('apply.title', { title: job?.title ?? '' })}
      onClose={() => send({ type: 'form.dismiss' })}
    >
      {askingDiscard && (
        <DiscardPrompt
          onKeep={() => send({ type: 'discard.cancel' })}
          onDiscard={() => send({ type: 'discard.confirm' })}
        />
      )}
      <form
        className={s.form}
        noValidate
        aria-busy={submitting}
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'form.submit' });
        }}
      >
        {errors.job_id && error('job_id')}
        {/* the list is read again: the opening that closed is gone from it */}
        {errors.job_id === 'jobGone' && (
          <p>
            <Link to="/careers" reloadDocument onClick={() => send({ type: 'form.cancel' })}>
              {t('apply.openOnes')}
            </Link>
          </p>
        )}
        <fieldset className={s.fieldset} disabled={submitting}>
          {textField('full_name', t('apply.fullName'), {
            type: 'text',
            autoComplete: 'name',
            maxLength: NAME_MAX,
          })}
          {textField('email', t('apply.email'), {
            type: 'email',
            autoComplete: 'email',
            maxLength: EMAIL_MAX,
            inputMode: 'email',
          })}
          {textField(
            'contact_number',
            t('apply.contact'),
            { type: 'tel', autoComplete: 'tel', maxLength: PHONE_MAX, inputMode: 'tel' },
            (fields.contact_country || DEFAULT_PHONE_COUNTRY) === 'IN'
              ? t('apply.contactHint')
              : t('apply.contactHintOther'),
            <CountrySelect
              value={fields.contact_country}
              phone={context.phone}
              lang={i18n.language}
              label={t('apply.country')}
              onChange={(code) => send({ type: 'field.change', name: 'contact_country', value: code })}
            />,
          )}
          <div className={s.field}>
            <label htmlFor={fieldId('address')}>
              {t('apply.address')}
              <span className={s.star} aria-hidden="true">
                *
              </span>
            </label>
            <textarea
              id={fieldId('address')}
              name="address"
              rows={3}
              required
              autoComplete="street-address"
              maxLength={ADDRESS_MAX}
              aria-invalid={errors.address ? true : undefined}
              aria-describedby={describedBy('address')}
              value={fields.address}
              onChange={(e) => send({ type: 'field.change', name: 'address', value: e.target.value })}
              onBlur={() => send({ type: 'field.blur', name: 'address' })}
            />
            {error('address')}
          </div>
          <div className={s.field}>
            <label htmlFor={fieldId('resume')}>
              {t('apply.resume')}
              <span className={s.star} aria-hidden="true">
                *
              </span>
            </label>
            <p id={`${fieldId('resume')}-hint`} className={s.hint}>
              {t('apply.resumeHint')}
            </p>
            <input
              id={fieldId('resume')}
              name="resume"
              type="file"
              accept={RESUME_ACCEPT}
              required
              className={s.file}
              aria-invalid={errors.resume ? true : undefined}
              aria-describedby={describedBy('resume', `${fieldId('resume')}-hint`)}
              onChange={(e) =>
                send({ type: 'field.change', name: 'resume', value: e.target.files?.[0] ?? null })
              }
            />
            {fields.resume && (
              <p className={s.chosen}>
                {t('apply.chosen', {
                  name: fields.resume.name,
                  size: formatSize(fields.resume.size, i18n.language),
                })}
              </p>
            )}
            {error('resume')}
          </div>
          <div className={s.consent}>
            <input
              id={fieldId('consent')}
              name="consent"
              type="checkbox"
              required
              checked={fields.consent}
              aria-invalid={errors.consent ? true : undefined}
              aria-describedby={describedBy('consent')}
              onChange={(e) => send({ type: 'field.change', name: 'consent', value: e.target.checked })}
            />
            <label htmlFor={fieldId('consent')}>{t('apply.consent')}</label>
          </div>
          <p className={s.privacy}>
            <Link to="/privacy-policy" target="_blank" rel="noopener">
              {t('apply.privacy')}
            </Link>
          </p>
          {error('consent')}
          {/* Honeypot: off-screen and out of the tab order; people never fill it, form bots do. */}
          <div className={s.honeypot} aria-hidden="true">
            <label htmlFor="apply-website">{t('apply.website')}</label>
            <input
              id="apply-website"
              name="website"
              type="text"
              tabIndex={-1}
              autoComplete="off"
              value={fields.website}
              onChange={(e) => send({ type: 'field.change', name: 'website', value: e.target.value })}
            />
          </div>
        </fieldset>
        {submitting && (
          <div className={s.progress} role="status">
            <progress value={percent} max={100} aria-label={t('apply.progressLabel')} />
            <span>{t('apply.uploading', { percent })}</span>
          </div>
        )}
        <div className={s.buttons}>
          <button type="button" className={s.secondary} onClick={() => send({ type: 'form.cancel' })}>
            {t('apply.cancel')}
          </button>
          <button type="submit" className={s.primary} disabled={submitting}>
            {submitting ? t('apply.submitting') : t('apply.submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
