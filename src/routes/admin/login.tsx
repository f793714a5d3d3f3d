import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import s from './login.module.css';
import { FirstRunHint } from './setup';

/** /admin/login: email and password, the server's message on a refusal, busy while signing in. */
export function LoginScreen({
  busy,
  error,
  onSubmit,
}: {
  busy: boolean;
  error: string | null;
  onSubmit(email: string, password: string): void;
}) {
  const { t } = useTranslation('admin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const errorId = useId();
  return (
    <main id="main" className={s.page}>
      <form
        className={s.card}
        noValidate
        aria-describedby={error ? errorId : undefined}
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit(email, password);
        }}
      >
        <p className={s.brand}>{t('panel')}</p>
        <h1>{t('login.title')}</h1>
        <p className={s.intro}>{t('login.intro')}</p>
        <FirstRunHint />
        {error && (
          <p id={errorId} role="alert" className={s.error}>
            {error}
          </p>
        )}
        <label htmlFor="login-email">{t('login.email')}</label>
        <input
          id="login-email"
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
          aria-invalid={error !== null && !email.trim() ? true : undefined}
        />
        <label htmlFor="login-password">{t('login.password')}</label>
        <input
          id="login-password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
        <button type="submit" disabled={busy}>
          {t(busy ? 'login.busy' : 'login.submit')}
        </button>
      </form>
    </main>
  );
}
