import { useId, useState, type ReactNode } from 'react';
import { passkeysSupported } from '../../../api/auth';
import type { SecondStep } from '../../../../contract/auth';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Modal } from '../../../components/modal';
import s from './login.module.css';
import { FirstRunHint } from './setup';

/**
 * The sign-in form: email and password, the server's message on a refusal, busy while signing in.
 * Used by the sign-in page and by the dialog over an ended session; `header` is what each puts
 * above the fields, `focusPassword` puts the focus on the password when the email is known.
 */
function SignInForm({
  idPrefix,
  className,
  initialEmail = '',
  focusPassword = false,
  header,
  footer,
  busy,
  error,
  onSubmit,
}: {
  idPrefix: string;
  className: string;
  initialEmail?: string;
  focusPassword?: boolean;
  header: ReactNode;
  /** Below the button (the sign-in page's "Forgot password?"). */
  footer?: ReactNode;
  busy: boolean;
  error: string | null;
  onSubmit(email: string, password: string): void;
}) {
  const { t } = useTranslation('admin');
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const errorId = useId();
  return (
    <form
      className={className}
      noValidate
      aria-describedby={error ? errorId : undefined}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(email, password);
      }}
    >
      {header}
      {error && (
        <p id={errorId} role="alert" className={s.error}>
          {error}
        </p>
      )}
      <label htmlFor={`${idPrefix}-email`}>{t('login.email')}</label>
      <input
        id={`${idPrefix}-email`}
        type="email"
        name="email"
        autoComplete="username"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        required
        aria-invalid={error !== null && !email.trim() ? true : undefined}
      />
      <label htmlFor={`${idPrefix}-password`}>{t('login.password')}</label>
      <input
        id={`${idPrefix}-password`}
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        // a <dialog> focuses its `autofocus` element when it opens (React's autoFocus sets no attribute)
        ref={focusPassword ? (el) => el?.setAttribute('autofocus', '') : undefined}
        required
      />
      <button type="submit" disabled={busy}>
        {t(busy ? 'login.busy' : 'login.submit')}
      </button>
      {footer}
    </form>
  );
}

/** /admin/login: the sign-in page (with "Sign in with a passkey" where the browser has passkeys). */
export function LoginScreen({
  onPasskey,
  ...props
}: {
  busy: boolean;
  error: string | null;
  onSubmit(email: string, password: string): void;
  onPasskey(): void;
}) {
  const { t } = useTranslation('admin');
  const [passkeys] = useState(passkeysSupported);
  return (
    <main id="main" className={s.page}>
      <SignInForm
        {...props}
        idPrefix="login"
        className={s.card}
        header={
          <>
            <p className={s.brand}>{t('panel')}</p>
            <h1>{t('login.title')}</h1>
            <p className={s.intro}>{t('login.intro')}</p>
            <FirstRunHint />
          </>
        }
        footer={
          <>
            {passkeys && (
              <button type="button" className={s.secondary} disabled={props.busy} onClick={onPasskey}>
                {t('login.passkey')}
              </button>
            )}
            <Link className={s.link} to="/admin/forgot-password">
              {t('login.forgot')}
            </Link>
          </>
        }
      />
    </main>
  );
}

type StepProps = {
  step: SecondStep;
  busy: boolean;
  error: string | null;
  onCode(code: string): void;
  onPasskey(): void;
  onCancel(): void;
};

/**
 * The second step of sign-in (docs/decisions/024): a code from the authenticator app, a recovery
 * code instead, or a passkey, whichever the account has; "Cancel" goes back to the password.
 */
export function SecondStepForm({
  idPrefix,
  inDialog = false,
  step,
  busy,
  error,
  onCode,
  onPasskey,
  onCancel,
}: StepProps & { idPrefix: string; inDialog?: boolean }) {
  const { t } = useTranslation('admin');
  const has = (m: SecondStep['methods'][number]) => step.methods.includes(m);
  const [mode, setMode] = useState<'totp' | 'recovery'>(
    has('totp') || !has('recovery') ? 'totp' : 'recovery',
  );
  const [code, setCode] = useState('');
  const errorId = useId();
  const showCode = has('totp') || mode === 'recovery';
  const passkeys = has('passkey') && passkeysSupported();
  return (
    <form
      className={inDialog ? `${s.card} ${s.inDialog}` : s.card}
      noValidate
      aria-describedby={error ? errorId : undefined}
      onSubmit={(e) => {
        e.preventDefault();
        onCode(code);
      }}
    >
      {!inDialog && (
        <>
          <p className={s.brand}>{t('panel')}</p>
          <h1>{t('secondStep.title')}</h1>
        </>
      )}
      <p className={s.intro}>
        {t(
          mode === 'recovery'
            ? 'secondStep.recoveryIntro'
            : showCode
              ? 'secondStep.totpIntro'
              : 'secondStep.passkeyIntro',
        )}
      </p>
      {error && (
        <p id={errorId} role="alert" className={s.error}>
          {error}
        </p>
      )}
      {showCode && (
        <>
          <label htmlFor={`${idPrefix}-code`}>
            {t(mode === 'recovery' ? 'secondStep.recoveryLabel' : 'secondStep.codeLabel')}
          </label>
          <input
            key={mode}
            id={`${idPrefix}-code`}
            name="code"
            autoComplete="one-time-code"
            inputMode={mode === 'totp' ? 'numeric' : 'text'}
            autoCapitalize="off"
            spellCheck={false}
            maxLength={mode === 'totp' ? 8 : 24}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            ref={(el) => el?.setAttribute('autofocus', '')}
            autoFocus={!inDialog}
            required
          />
          <button type="submit" disabled={busy}>
            {t(busy ? 'secondStep.busy' : 'secondStep.submit')}
          </button>
        </>
      )}
      {passkeys && (
        <button
          type="button"
          className={showCode ? s.secondary : undefined}
          disabled={busy}
          onClick={onPasskey}
        >
          {t('secondStep.passkey')}
        </button>
      )}
      <div className={s.stepLinks}>
        {has('recovery') && (
          <button
            type="button"
            className={s.linkButton}
            onClick={() => {
              setMode(mode === 'recovery' ? 'totp' : 'recovery');
              setCode('');
            }}
          >
            {t(
              mode === 'recovery'
                ? has('totp')
                  ? 'secondStep.useApp'
                  : 'secondStep.usePasskey'
                : 'secondStep.useRecovery',
            )}
          </button>
        )}
        <button type="button" className={s.linkButton} disabled={busy} onClick={onCancel}>
          {t(inDialog ? 'secondStep.back' : 'secondStep.cancel')}
        </button>
      </div>
    </form>
  );
}

/** The second step as its own page, after the password on the sign-in page. */
export function SecondStepScreen(props: StepProps) {
  return (
    <main id="main" className={s.page}>
      <SecondStepForm {...props} idPrefix="second-step" />
    </main>
  );
}

/**
 * The session ended while screens were open (an admin call answered 401): a sign-in dialog over
 * them, the email already filled in. The screens stay as they were (a form keeps what was typed);
 * after signing in, the same action (Save, for example) goes through.
 */
export function SessionExpiredDialog({
  email,
  ...props
}: {
  email: string;
  busy: boolean;
  error: string | null;
  onSubmit(email: string, password: string): void;
}) {
  const { t } = useTranslation('admin');
  return (
    <Modal open title={t('reauth.title')} onClose={() => undefined} closeOnBackdrop={false}>
      <SignInForm
        {...props}
        idPrefix="reauth"
        className={`${s.card} ${s.inDialog}`}
        initialEmail={email}
        focusPassword
        header={<p className={s.intro}>{t('reauth.text')}</p>}
      />
    </Modal>
  );
}
