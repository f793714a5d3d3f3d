import { useMachine } from '@xstate/react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { createOwnerWithToken, fetchSetupStatus } from '../../api/auth';
import type { SessionUser } from '../../api/contract/auth';
import { firstRunMachine } from '../../machines/first-run.machine';
import s from './login.module.css';

/** The first-run machine with the real API: the sign-in page's hint and the setup page use it. */
export const firstRunLive = (onSignedIn: (user: SessionUser) => void = () => {}) =>
  firstRunMachine.provide({
    actors: {
      fetchSetupStatus: fromPromise(() => fetchSetupStatus()),
      createOwner: fromPromise(({ input }) => createOwnerWithToken(input)),
    },
    actions: { notifySignedIn: (_, { user }) => onSignedIn(user) },
  });

/** On the sign-in page of a site with no account yet: how to make the first one. */
export function FirstRunHint() {
  const { t } = useTranslation('admin');
  const [machine] = useState(() => firstRunLive());
  const [state] = useMachine(machine);
  if (!state.matches('needed')) return null;
  return (
    <p className={s.hint} role="note">
      {t('setup.hint')} <code>npm run create-admin -- --email you@example.com</code>
    </p>
  );
}

/**
 * /admin/setup?token=...: the address a server with no account prints when it starts. Makes the
 * owner account (email, password twice), signs them in and opens the back office.
 */
export function SetupScreen({ onSignedIn }: { onSignedIn(user: SessionUser): void }) {
  const { t } = useTranslation('admin');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [machine] = useState(() => firstRunLive(onSignedIn));
  const [state, send] = useMachine(machine);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const formErrorId = useId();
  const errors = state.context.errors;
  const field = (name: string) =>
    errors[name] ? { 'aria-invalid': true, 'aria-describedby': `setup-${name}-error` } : {};
  const fieldError = (name: string) =>
    errors[name] ? (
      <p id={`setup-${name}-error`} className={s.error}>
        {errors[name]}
      </p>
    ) : null;

  if (state.matches('asking')) {
    return (
      <main id="main" className={s.page}>
        <p role="status">{t('loading')}</p>
      </main>
    );
  }
  if (state.matches('notNeeded') || !token) {
    return (
      <main id="main" className={s.page}>
        <div className={s.card}>
          <p className={s.brand}>{t('panel')}</p>
          <h1>{t('setup.title')}</h1>
          <p role="alert">{t(token ? 'setup.done' : 'setup.noToken')}</p>
          <Link className={s.link} to="/admin/login">
            {t('setup.toLogin')}
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
          send({ type: 'form.submit', token, email, password, repeat });
        }}
      >
        <p className={s.brand}>{t('panel')}</p>
        <h1>{t('setup.title')}</h1>
        <p className={s.intro}>{t('setup.intro')}</p>
        {errors.form && (
          <p id={formErrorId} role="alert" className={s.error}>
            {errors.form}
          </p>
        )}
        <label htmlFor="setup-email">{t('login.email')}</label>
        <input
          id="setup-email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
          {...field('email')}
        />
        {fieldError('email')}
        <label htmlFor="setup-password">{t('login.password')}</label>
        <input
          id="setup-password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
          {...field('password')}
        />
        {fieldError('password')}
        <p className={s.help}>{t('setup.rules')}</p>
        <label htmlFor="setup-repeat">{t('setup.repeat')}</label>
        <input
          id="setup-repeat"
          type="password"
          autoComplete="new-password"
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
          required
          {...field('repeat')}
        />
        {fieldError('repeat')}
        <button type="submit" disabled={state.matches('saving')}>
          {t(state.matches('saving') ? 'setup.busy' : 'setup.submit')}
        </button>
      </form>
    </main>
  );
}
