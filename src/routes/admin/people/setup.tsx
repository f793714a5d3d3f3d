import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { SessionUser } from '../../../../contract/auth';
import { firstRunLive } from './setup.live';
import { CardField, CardForm, NewPasswordFields, NoteCard } from './sign-in-card';
import s from './login.module.css';

/** A shell command: the same in every language. */
const CREATE_ADMIN_COMMAND = 'npm run create-admin -- --email you@example.com';

/** On the sign-in page of a site with no account yet: how to make the first one. */
export function FirstRunHint() {
  const { t } = useTranslation('admin');
  const [machine] = useState(() => firstRunLive());
  const [state] = useMachine(machine);
  if (!state.matches('needed')) return null;
  return (
    <p className={s.hint} role="note">
      {t('setup.hint')} <code>{state.context.createAdmin ?? CREATE_ADMIN_COMMAND}</code>
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
      <NoteCard title={t('setup.title')} role="alert" text={t(token ? 'setup.done' : 'setup.noToken')}>
        <Link className={s.link} to="/admin/login">
          {t('setup.toLogin')}
        </Link>
      </NoteCard>
    );
  }
  return (
    <CardForm
      title={t('setup.title')}
      intro={t('setup.intro')}
      error={errors.form}
      onSubmit={() => send({ type: 'form.submit', token, email, password, repeat })}
    >
      <CardField
        id="setup-email"
        type="email"
        label={t('login.email')}
        value={email}
        onChange={setEmail}
        error={errors.email}
        autoComplete="username"
      />
      <NewPasswordFields
        idPrefix="setup"
        labels={{ password: t('login.password'), repeat: t('setup.repeat') }}
        password={[password, setPassword, errors.password]}
        repeat={[repeat, setRepeat, errors.repeat]}
      />
      <button type="submit" disabled={state.matches('saving')}>
        {t(state.matches('saving') ? 'setup.busy' : 'setup.submit')}
      </button>
    </CardForm>
  );
}
