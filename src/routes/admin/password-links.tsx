import { useMachine } from '@xstate/react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { fetchForgotPasswordStatus, requestPasswordLink, resetPasswordWithLink } from '../../api/auth';
import { FORGOT_EMAIL_REQUIRED, forgotPasswordMachine } from '../../machines/forgot-password.machine';
import { RESET_PASSWORD_MISMATCH, resetPasswordMachine } from '../../machines/reset-password.machine';
import s from './login.module.css';

/** One labelled input of these forms, with its message under it. */
function Field({
  id,
  type,
  label,
  value,
  onChange,
  error,
  autoComplete,
}: {
  id: string;
  type: 'email' | 'password';
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string;
  autoComplete: string;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        autoComplete={autoComplete}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p id={`${id}-error`} className={s.error}>
          {error}
        </p>
      )}
    </>
  );
}

/** /admin/forgot-password: asks for a reset link by email (or says to ask an administrator). */
export function ForgotPasswordScreen() {
  const { t, i18n } = useTranslation('admin');
  const [machine] = useState(() =>
    forgotPasswordMachine.provide({
      actors: {
        fetchStatus: fromPromise(() => fetchForgotPasswordStatus()),
        // the mail is written in the language of the page
        requestLink: fromPromise(({ input }) => requestPasswordLink({ ...input, lang: i18n.language })),
      },
    }),
  );
  const [state, send] = useMachine(machine);
  const [email, setEmail] = useState('');
  const formErrorId = useId();
  const { errors } = state.context;
  const back = (
    <Link className={s.link} to="/admin/login">
      {t('forgot.toLogin')}
    </Link>
  );

  if (state.matches('checking')) {
    return (
      <main id="main" className={s.page}>
        <p role="status">{t('loading')}</p>
      </main>
    );
  }
  if (state.matches('unavailable') || state.matches('sent')) {
    const sent = state.matches('sent');
    return (
      <main id="main" className={s.page}>
        <div className={s.card}>
          <p className={s.brand}>{t('panel')}</p>
          <h1>{t(sent ? 'forgot.sentTitle' : 'forgot.title')}</h1>
          <p role={sent ? 'status' : 'alert'} className={s.intro}>
            {sent ? t('forgot.sent', { email: state.context.email }) : t('forgot.unavailable')}
          </p>
          {sent && (
            <button type="button" onClick={() => send({ type: 'form.again' })}>
              {t('forgot.again')}
            </button>
          )}
          {back}
        </div>
      </main>
    );
  }
  return (
    <main id="main" className={s.page}>
      <form
        className={s.card}
        noValidate
        aria-describedby={errors.form ? formErrorId : undefined}
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'form.submit', email });
        }}
      >
        <p className={s.brand}>{t('panel')}</p>
        <h1>{t('forgot.title')}</h1>
        <p className={s.intro}>{t('forgot.intro')}</p>
        {errors.form && (
          <p id={formErrorId} role="alert" className={s.error}>
            {errors.form}
          </p>
        )}
        <Field
          id="forgot-email"
          type="email"
          label={t('login.email')}
          value={email}
          onChange={setEmail}
          error={errors.email === FORGOT_EMAIL_REQUIRED ? t('forgot.required') : errors.email}
          autoComplete="username"
        />
        <button type="submit" disabled={state.matches('sending')}>
          {t(state.matches('sending') ? 'forgot.busy' : 'forgot.submit')}
        </button>
        {back}
      </form>
    </main>
  );
}

/**
 * /admin/reset-password?token=...: the page of a reset link or an invitation (`&invite=1`): the
 * new password twice, then the way to sign in.
 */
export function ResetPasswordScreen() {
  const { t } = useTranslation('admin');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const invite = params.get('invite') === '1';
  const [machine] = useState(() =>
    resetPasswordMachine.provide({
      actors: { resetPassword: fromPromise(({ input }) => resetPasswordWithLink(input)) },
    }),
  );
  const [state, send] = useMachine(machine, { input: { token } });
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const formErrorId = useId();
  const { errors } = state.context;
  const title = t(invite ? 'reset.inviteTitle' : 'reset.title');

  if (!token || state.matches('done')) {
    return (
      <main id="main" className={s.page}>
        <div className={s.card}>
          <p className={s.brand}>{t('panel')}</p>
          <h1>{title}</h1>
          <p role={token ? 'status' : 'alert'} className={s.intro}>
            {t(token ? 'reset.done' : 'reset.noToken')}
          </p>
          <Link className={s.link} to="/admin/login">
            {t('reset.toLogin')}
          </Link>
        </div>
      </main>
    );
  }
  return (
    <main id="main" className={s.page}>
      <form
        className={s.card}
        noValidate
        aria-describedby={errors.form ? formErrorId : undefined}
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'form.submit', password, repeat });
        }}
      >
        <p className={s.brand}>{t('panel')}</p>
        <h1>{title}</h1>
        <p className={s.intro}>{t('reset.intro')}</p>
        {errors.form && (
          <div id={formErrorId} role="alert" className={s.error}>
            {errors.form}{' '}
            <Link className={s.link} to="/admin/forgot-password">
              {t('reset.newLink')}
            </Link>
          </div>
        )}
        <Field
          id="reset-password"
          type="password"
          label={t('reset.password')}
          value={password}
          onChange={setPassword}
          error={errors.password}
          autoComplete="new-password"
        />
        <p className={s.help}>{t('setup.rules')}</p>
        <Field
          id="reset-repeat"
          type="password"
          label={t('reset.repeat')}
          value={repeat}
          onChange={setRepeat}
          error={errors.repeat === RESET_PASSWORD_MISMATCH ? t('reset.mismatch') : errors.repeat}
          autoComplete="new-password"
        />
        <button type="submit" disabled={state.matches('saving')}>
          {t(state.matches('saving') ? 'reset.busy' : 'reset.submit')}
        </button>
      </form>
    </main>
  );
}
