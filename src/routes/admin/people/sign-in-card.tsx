import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import s from './login.module.css';

/*
 * The small cards of the signed-out pages (setup, forgot password, reset password): a form with the
 * panel's name, a heading, an intro and the form's message; a note with one message and what to do
 * next; and their labelled inputs.
 */

/** A card form; `onSubmit` runs without the browser's own submit. */
export function CardForm({
  title,
  intro,
  error,
  onSubmit,
  children,
}: {
  title: string;
  intro: string;
  /** The form's message (an alert), if any. */
  error?: ReactNode;
  onSubmit(): void;
  children: ReactNode;
}) {
  const { t } = useTranslation('admin');
  const errorId = useId();
  return (
    <main id="main" className={s.page}>
      <form
        className={s.card}
        noValidate
        aria-describedby={error ? errorId : undefined}
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <p className={s.brand}>{t('panel')}</p>
        <h1>{title}</h1>
        <p className={s.intro}>{intro}</p>
        {error && (
          <p id={errorId} role="alert" className={s.error}>
            {error}
          </p>
        )}
        {children}
      </form>
    </main>
  );
}

/** A card with a heading, one message (a status or an alert) and what to do next. */
export function NoteCard({
  title,
  role,
  text,
  children,
}: {
  title: string;
  role: 'status' | 'alert';
  text: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('admin');
  return (
    <main id="main" className={s.page}>
      <div className={s.card}>
        <p className={s.brand}>{t('panel')}</p>
        <h1>{title}</h1>
        <p role={role} className={s.intro}>
          {text}
        </p>
        {children}
      </div>
    </main>
  );
}

/**
 * One labelled input of the small sign-in-card forms (setup, forgot password, reset password),
 * with its message under it, tied to it for screen readers.
 */
export function CardField({
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

type Entry = [value: string, onChange: (value: string) => void, error: string | undefined];

/** A new password, the rules under it, and the same password again. */
export function NewPasswordFields({
  idPrefix,
  labels,
  password,
  repeat,
}: {
  idPrefix: string;
  labels: { password: string; repeat: string };
  password: Entry;
  repeat: Entry;
}) {
  const { t } = useTranslation('admin');
  return (
    <>
      <CardField
        id={`${idPrefix}-password`}
        type="password"
        label={labels.password}
        value={password[0]}
        onChange={password[1]}
        error={password[2]}
        autoComplete="new-password"
      />
      <p className={s.help}>{t('setup.rules')}</p>
      <CardField
        id={`${idPrefix}-repeat`}
        type="password"
        label={labels.repeat}
        value={repeat[0]}
        onChange={repeat[1]}
        error={repeat[2]}
        autoComplete="new-password"
      />
    </>
  );
}
