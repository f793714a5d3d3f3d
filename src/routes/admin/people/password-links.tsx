import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { FORGOT_EMAIL_REQUIRED } from '../../../machines/forgot-password.machine';
import { RESET_PASSWORD_MISMATCH } from '../../../machines/reset-password.machine';
import { forgotPasswordLive, resetPasswordLive } from './password-links.live';
import { CardField, CardForm, NewPasswordFields, NoteCard } from './sign-in-card';
import s from './login.module.css';

/** /admin/forgot-password: asks for a reset link by email (or says to ask an administrator). */
export function ForgotPasswordScreen() {
  const { t, i18n } = useTranslation('admin');
  const [machine] = useState(() => forgotPasswordLive(i18n));
  const [state, send] = useMachine(machine);
  const [email, setEmail] = useState('');
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
      <NoteCard
        title={t(sent ? 'forgot.sentTitle' : 'forgot.title')}
        role={sent ? 'status' : 'alert'}
        text={sent ? t('forgot.sent', { email: state.context.email }) : t('forgot.unavailable')}
      >
        {sent && (
          <button type="button" onClick={() => send({ type: 'form.again' })}>
            {t('forgot.again')}
          </button>
        )}
        {back}
      </NoteCard>
    );
  }
  return (
    <CardForm
      title={t('forgot.title')}
      intro={t('forgot.intro')}
      error={errors.form}
      onSubmit={() => send({ type: 'form.submit', email })}
    >
      <CardField
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
    </CardForm>
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
  const [state, send] = useMachine(resetPasswordLive, { input: { token } });
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const { errors } = state.context;
  const title = t(invite ? 'reset.inviteTitle' : 'reset.title');

  if (!token || state.matches('done')) {
    return (
      <NoteCard
        title={title}
        role={token ? 'status' : 'alert'}
        text={t(token ? 'reset.done' : 'reset.noToken')}
      >
        <Link className={s.link} to="/admin/login">
          {t('reset.toLogin')}
        </Link>
      </NoteCard>
    );
  }
  return (
    <CardForm
      title={title}
      intro={t('reset.intro')}
      error={
        errors.form && (
          <>
            {errors.form}{' '}
            <Link className={s.link} to="/admin/forgot-password">
              {t('reset.newLink')}
            </Link>
          </>
        )
      }
      onSubmit={() => send({ type: 'form.submit', password, repeat })}
    >
      <NewPasswordFields
        idPrefix="reset"
        labels={{ password: t('reset.password'), repeat: t('reset.repeat') }}
        password={[password, setPassword, errors.password]}
        repeat={[
          repeat,
          setRepeat,
          errors.repeat === RESET_PASSWORD_MISMATCH ? t('reset.mismatch') : errors.repeat,
        ]}
      />
      <button type="submit" disabled={state.matches('saving')}>
        {t(state.matches('saving') ? 'reset.busy' : 'reset.submit')}
      </button>
    </CardForm>
  );
}
