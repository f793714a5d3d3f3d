import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { changePassword } from '../../api/auth';
import { showToast } from '../../components/toasts';
import { passwordChangeMachine } from '../../machines/password-change.machine';
import { useAdminSession } from './admin-context';
import s from './users.module.css';
import f from './openings.module.css';

/** A signed-in user changes their own password (required after a one-time password). */
export function PasswordScreen() {
  const { t, i18n } = useTranslation('admin');
  const { user, userUpdated } = useAdminSession();
  const [machine] = useState(() =>
    passwordChangeMachine.provide({
      actors: { changePassword: fromPromise(({ input }) => changePassword(input)) },
      actions: {
        notifyChanged: (_, { user: next }) => {
          showToast('success', {
            title: i18n.t('admin:toast.success'),
            message: i18n.t('admin:password.changed'),
          });
          userUpdated(next);
        },
      },
    }),
  );
  const [state, send] = useMachine(machine);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const { errors } = state.context;
  const field = (
    id: string,
    label: string,
    value: string,
    set: (v: string) => void,
    error: string | undefined,
    autoComplete: string,
  ) => (
    <div className={f.field}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="password"
        value={value}
        autoComplete={autoComplete}
        onChange={(e) => set(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
      />
      {error ? (
        <p id={`${id}-error`} className={f.error} role="alert">
          {error}
        </p>
      ) : (
        <span id={`${id}-hint`} hidden />
      )}
    </div>
  );
  return (
    <section className={s.panel} aria-labelledby="password-title">
      <h2 id="password-title">{t('password.title')}</h2>
      {user.must_change_password && (
        <p role="status" className={s.help}>
          {t('password.required')}
        </p>
      )}
      <p className={s.help}>{t('password.rules')}</p>
      <form
        className={f.form}
        noValidate
        style={{ maxWidth: '28rem' }}
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'form.submit', current, next, repeat });
        }}
      >
        {errors.form && (
          <p className={f.error} role="alert">
            {errors.form}
          </p>
        )}
        {field(
          'pw-current',
          t('password.current'),
          current,
          setCurrent,
          errors.current_password,
          'current-password',
        )}
        {field('pw-new', t('password.new'), next, setNext, errors.new_password, 'new-password')}
        {field('pw-repeat', t('password.repeat'), repeat, setRepeat, errors.repeat, 'new-password')}
        <div className={f.actions}>
          <button type="submit" className={f.primary} disabled={state.matches('saving')}>
            {t(state.matches('saving') ? 'password.saving' : 'password.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
