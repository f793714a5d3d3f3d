import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTICE_CHOICES } from '../../../../contract/mail';
import type { NoticeKind } from '../../../machines/notice-prefs.machine';
import { useAdminSession } from '../shared/admin-context';
import { noticePrefsLive } from './notice-prefs.live';
import { passwordChangeLive } from './password.live';
import { displayNameLive } from './display-name.live';
import { SecurityPanel } from './security';
import s from '../shared/screen.module.css';
import f from '../shared/admin-controls.module.css';

/** A signed-in user changes their own password (required after a one-time password). */
export function PasswordScreen() {
  const { t, i18n } = useTranslation('admin');
  const { user, userUpdated } = useAdminSession();
  const [machine] = useState(() => passwordChangeLive(i18n, userUpdated));
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
  // their role requires a second factor and they have none: that comes first, and alone (the panel
  // keeps its place in the tree, so its recovery codes stay on screen once the factor is added)
  const setupOnly = user.factor_setup_required === true && !user.must_change_password;
  return (
    <div className={s.screen}>
      {!setupOnly && (
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
      )}
      {!user.must_change_password && !setupOnly && <ProfilePanel />}
      {!user.must_change_password && <SecurityPanel />}
      {!user.must_change_password && !setupOnly && <NoticesPanel />}
    </div>
  );
}

/** The name readers see on the posts this person writes (display-name.machine.ts). */
function ProfilePanel() {
  const { t, i18n } = useTranslation('admin');
  const { user, userUpdated } = useAdminSession();
  const [machine] = useState(() => displayNameLive(i18n, user, userUpdated));
  const [state, send] = useMachine(machine, { input: { name: user.display_name ?? '' } });
  const { name, error } = state.context;
  return (
    <section className={s.panel} aria-labelledby="profile-title">
      <h2 id="profile-title">{t('profile.title')}</h2>
      <form
        className={f.form}
        noValidate
        style={{ maxWidth: '28rem' }}
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'name.save' });
        }}
      >
        <div className={f.field}>
          <label htmlFor="profile-name">{t('profile.name')}</label>
          <input
            id="profile-name"
            value={name}
            autoComplete="name"
            onChange={(e) => send({ type: 'name.change', name: e.target.value })}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'profile-name-error' : 'profile-name-hint'}
          />
          {error ? (
            <p id="profile-name-error" className={f.error} role="alert">
              {t('profile.tooLong')}
            </p>
          ) : (
            <p id="profile-name-hint" className={s.help}>
              {t('profile.hint')}
            </p>
          )}
        </div>
        <div className={f.actions}>
          <button type="submit" className={f.primary} disabled={state.matches('saving')}>
            {t(state.matches('saving') ? 'profile.saving' : 'profile.save')}
          </button>
        </div>
      </form>
    </section>
  );
}

/** Email notices: for each kind the role may read, one mail each, a daily digest, or none. */
function NoticesPanel() {
  const { t, i18n } = useTranslation('admin');
  const [machine] = useState(() => noticePrefsLive(i18n));
  const [state, send] = useMachine(machine);
  const { draft } = state.context;
  const kinds = (['applications', 'messages'] as NoticeKind[]).filter((k) => draft[k] !== null);
  return (
    <section id="notices" className={s.panel} aria-labelledby="notices-title">
      <h2 id="notices-title">{t('notices.title')}</h2>
      {state.matches('loading') && <p role="status">{t('loading')}</p>}
      {state.matches('failed') && (
        <div role="alert">
          <p>{t('notices.loadFailed')}</p>
          <button type="button" className={s.secondary} onClick={() => send({ type: 'list.retry' })}>
            {t('actions.retry')}
          </button>
        </div>
      )}
      {!state.matches('loading') && !state.matches('failed') && kinds.length === 0 && (
        <p className={s.help}>{t('notices.none')}</p>
      )}
      {!state.matches('loading') && !state.matches('failed') && kinds.length > 0 && (
        <form
          className={f.form}
          style={{ maxWidth: '28rem' }}
          onSubmit={(e) => {
            e.preventDefault();
            send({ type: 'prefs.save' });
          }}
        >
          <p className={s.help}>{t('notices.help')}</p>
          {kinds.map((kind) => (
            <div key={kind} className={f.field}>
              <label htmlFor={`notice-${kind}`}>{t(`notices.${kind}`)}</label>
              <select
                id={`notice-${kind}`}
                value={draft[kind] ?? 'each'}
                onChange={(e) =>
                  send({
                    type: 'choice.change',
                    kind,
                    choice: e.target.value as (typeof NOTICE_CHOICES)[number],
                  })
                }
              >
                {NOTICE_CHOICES.map((choice) => (
                  <option key={choice} value={choice}>
                    {t(`notices.${choice}`)}
                  </option>
                ))}
              </select>
            </div>
          ))}
          <div className={f.actions}>
            <button type="submit" className={f.primary} disabled={state.matches('saving')}>
              {t(state.matches('saving') ? 'notices.saving' : 'notices.save')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
