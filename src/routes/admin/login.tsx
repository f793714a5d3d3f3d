import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/modal';
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

/**
 * The session ended while screens were open (an admin call answered 401): a sign-in dialog over
 * them, the email already filled in. The screens stay as they were (a form keeps what was typed);
 * after signing in, the same action (Save, for example) goes through.
 */
export function SessionExpiredDialog({
  email: knownEmail,
  busy,
  error,
  onSubmit,
}: {
  email: string;
  busy: boolean;
  error: string | null;
  onSubmit(email: string, password: string): void;
}) {
  const { t } = useTranslation('admin');
  const [email, setEmail] = useState(knownEmail);
  const [password, setPassword] = useState('');
  const errorId = useId();
  return (
    <Modal open title={t('reauth.title')} onClose={() => undefined} closeOnBackdrop={false}>
      <form
        className={`${s.card} ${s.inDialog}`}
        noValidate
        aria-describedby={error ? errorId : undefined}
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit(email, password);
        }}
      >
        <p className={s.intro}>{t('reauth.text')}</p>
        {error && (
          <p id={errorId} role="alert" className={s.error}>
            {error}
          </p>
        )}
        <label htmlFor="reauth-email">{t('login.email')}</label>
        <input
          id="reauth-email"
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
        />
        <label htmlFor="reauth-password">{t('login.password')}</label>
        <input
          id="reauth-password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          // the dialog focuses its `autofocus` element when it opens (React's autoFocus sets no attribute)
          ref={(el) => el?.setAttribute('autofocus', '')}
          required
        />
        <button type="submit" disabled={busy}>
          {t(busy ? 'login.busy' : 'login.submit')}
        </button>
      </form>
    </Modal>
  );
}
