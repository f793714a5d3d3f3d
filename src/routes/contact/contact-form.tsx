import { useState, type ChangeEvent } from 'react';
import { Link } from 'react-router-dom';
import { useMachine } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import {
  CONTACT_COMPANY_MAX,
  CONTACT_MESSAGE_MAX,
  CONTACT_NAME_MAX,
  type ContactCheckedField,
} from '../../../contract/contact-rules';
import { EMAIL_MAX } from '../../../contract/form-rules';
import { MarketingIcon } from '../../components/marketing/marketing-icons';
import type { ContactField } from '../../machines/contact-form.machine';
import { contactFormLive } from './contact-form.live';
import s from './contact-form.module.css';

/** The honeypot's label: for bots, which read English; people never see it. */
const HONEYPOT_LABEL = 'Website';

type Input = HTMLInputElement | HTMLTextAreaElement;

/** The 'Get in Touch' form: markup for the contact-form machine, which owns every rule and timer. */
export function ContactForm() {
  const { t, i18n } = useTranslation('contact');
  const [machine] = useState(() => contactFormLive(i18n));
  const [state, send] = useMachine(machine, { input: { lang: i18n.language } });
  const { fields, errors } = state.context;
  const sending = state.matches('sending');

  const change = (name: ContactField) => (e: ChangeEvent<Input>) =>
    send({ type: 'field.change', name, value: e.target.value });
  const blur = (name: ContactField) => () => send({ type: 'field.blur', name });

  const field = (
    name: ContactCheckedField,
    opts: {
      label: string;
      required: boolean;
      max: number;
      multiline?: boolean;
      type?: string;
      autoComplete?: string;
    },
  ) => {
    const error = errors[name];
    const errorId = `contact-${name}-error`;
    const common = {
      id: `contact-${name}`,
      name,
      value: fields[name],
      maxLength: opts.max,
      onChange: change(name),
      onBlur: blur(name),
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? errorId : undefined,
      'aria-required': opts.required || undefined,
      className: s.control,
      readOnly: sending,
    } as const;
    return (
      <div className={s.field}>
        <label htmlFor={common.id} className={s.label}>
          {opts.label}
          {opts.required ? (
            <span className={s.star} aria-hidden="true">
              *
            </span>
          ) : (
            <span className={s.optional}> {t('form.optional')}</span>
          )}
        </label>
        {opts.multiline ? (
          <textarea {...common} rows={6} />
        ) : (
          <input
            {...common}
            type={opts.type ?? 'text'}
            autoComplete={opts.autoComplete}
            inputMode={opts.type === 'email' ? 'email' : undefined}
          />
        )}
        {error && (
          <p id={errorId} className={s.error} role="alert">
            {t(`form.errors.${error}`)}
          </p>
        )}
      </div>
    );
  };

  return (
    <form
      className={s.form}
      noValidate
      aria-labelledby="get-in-touch"
      onSubmit={(e) => {
        e.preventDefault();
        send({ type: 'form.submit' });
      }}
    >
      <h2 id="get-in-touch" className={s.title}>
        {t('form.title')}
      </h2>
      <p className={s.intro}>{t('form.intro')}</p>
      <div className={s.row}>
        {field('name', {
          label: t('form.name'),
          required: true,
          max: CONTACT_NAME_MAX,
          autoComplete: 'name',
        })}
        {field('email', {
          label: t('form.email'),
          required: true,
          max: EMAIL_MAX,
          type: 'email',
          autoComplete: 'email',
        })}
      </div>
      {field('company', {
        label: t('form.company'),
        required: false,
        max: CONTACT_COMPANY_MAX,
        autoComplete: 'organization',
      })}
      {field('message', {
        label: t('form.message'),
        required: true,
        max: CONTACT_MESSAGE_MAX,
        multiline: true,
      })}
      {/* Honeypot: people never see or reach it; bots that fill it get a normal answer. */}
      <div className={s.honeypot} aria-hidden="true">
        <label htmlFor="contact-website">{HONEYPOT_LABEL}</label>
        <input
          id="contact-website"
          name="website"
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={fields.website}
          onChange={change('website')}
        />
      </div>
      <p className={s.privacy}>
        {t('form.privacy')} <Link to="/privacy-policy">{t('form.privacyLink')}</Link>
      </p>
      <div className={s.submitRow}>
        <button type="submit" className={s.submit} aria-disabled={sending || undefined}>
          <MarketingIcon name="send" size={18} />
          {sending ? t('form.sending') : t('form.submit')}
        </button>
        <p className={s.note}>{t('form.note')}</p>
      </div>
    </form>
  );
}
