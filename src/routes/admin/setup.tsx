import { useMachine } from '@xstate/react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { createOwnerWithToken, fetchSetupStatus } from '../../api/auth';
import type { SessionUser } from '../../api/contract/auth';
import { firstRunMachine } from '../../machines/first-run.machine';
import s from './login.module.css';

/** A shell command: the same in every language. */
const CREATE_ADMIN_COMMAND = 'npm run create-admin -- --email you@example.com';

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
      {t('setup.hint')} <code>{CREATE_ADMIN_COMMAND}</code>
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
        <Field
          name="email"
          type="email"
          label={t('login.email')}
          value={email}
          onChange={setEmail}
          error={errors.email}
        />
        <Field
          name="password"
          type="password"
          label={t('login.password')}
          value={password}
          onChange={setPassword}
          error={errors.password}
        />
        <p className={s.help}>{t('setup.rules')}</p>
        <Field
          name="repeat"
          type="password"
          label={t('setup.repeat')}
          value={repeat}
          onChange={setRepeat}
          error={errors.repeat}
        />
        <button type="submit" disabled={state.matches('saving')}>
          {t(state.matches('saving') ? 'setup.busy' : 'setup.submit')}
        </button>
      </form>
    </main>
  );
}

/** One labelled input of the setup form, with the server's or the form's message under it. */
function Field({
  name,
  type,
  label,
  value,
  onChange,
  error,
}: {
  name: 'email' | 'password' | 'repeat';
  type: 'email' | 'password';
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string;
}) {
  const id = `setup-${name}`;
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        autoComplete={name === 'email' ? 'username' : 'new-password'}
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
