import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { passkeysSupported } from '../../../api/auth';
import type { SessionRow } from '../../../../contract/auth';
import { Modal } from '../../../components/modal';
import { formatSavedAt } from '../../../offline/format';
import { useAdminSession } from '../shared/admin-context';
import { ProofDialog } from './proof-dialog';
import { signInSecurityLive } from './security.live';
import f from '../shared/admin-controls.module.css';
import u from '../shared/screen.module.css';
import s from './security.module.css';

/**
 * "Sign-in security" on the account screen (docs/decisions/024-second-factors.md): the person's
 * second factors (authenticator app, passkeys), their recovery codes and their signed-in sessions.
 * A person whose role requires a factor and who has none sees this first, and only this.
 */
export function SecurityPanel() {
  const { t, i18n } = useTranslation('admin');
  const { userUpdated } = useAdminSession();
  const [machine] = useState(() => signInSecurityLive(userUpdated));
  const [state, send] = useMachine(machine);
  const { factors, sessions, error } = state.context;
  const [passkeys] = useState(passkeysSupported);
  const [passkeyName, setPasskeyName] = useState('');
  // a request is on its way: the buttons wait for it
  const busy = !(['ready', 'totpShowing', 'proving', 'confirmingRemove', 'showingCodes'] as const).some((v) =>
    state.matches(v),
  );
  const when = (iso: string | null) => (iso ? formatSavedAt(iso, i18n.language) : t('security.never'));
  const hasTotp = factors?.factors.some((x) => x.kind === 'totp') ?? false;
  const removing = state.context.pending?.type === 'remove' ? state.context.pending.id : null;

  return (
    <section id="security" className={`${u.panel} ${s.panel}`} aria-labelledby="security-title">
      <h2 id="security-title">{t('security.title')}</h2>
      {state.matches('loading') && <p role="status">{t('loading')}</p>}
      {state.matches('failed') && (
        <div role="alert">
          <p>{t('security.loadFailed')}</p>
          <button type="button" className={f.secondary} onClick={() => send({ type: 'list.retry' })}>
            {t('actions.retry')}
          </button>
        </div>
      )}
      {factors && (
        <>
          {factors.required && factors.factors.length === 0 ? (
            <p role="alert" className={s.required}>
              {t('security.required')}
            </p>
          ) : (
            <p className={u.help}>{t('security.help')}</p>
          )}
          {error && (
            <p role="alert" className={f.error}>
              {error}
            </p>
          )}

          <h3>{t('security.factorsTitle')}</h3>
          {factors.factors.length === 0 ? (
            <p className={u.help}>{t('security.noFactors')}</p>
          ) : (
            <ul className={s.list} aria-label={t('security.factorsTitle')}>
              {factors.factors.map((x) => (
                <li key={x.factor_id} className={s.item}>
                  <div>
                    <strong>{x.name}</strong>{' '}
                    {x.name !== t(`security.kind.${x.kind}`) && (
                      <span className={s.kind}>{t(`security.kind.${x.kind}`)}</span>
                    )}
                    <p className={s.meta}>
                      {t('security.added', { when: when(x.created_at) })} ·{' '}
                      {t('security.lastUsed', { when: when(x.last_used_at) })}
                    </p>
                  </div>
                  <button
                    type="button"
                    className={f.secondary}
                    disabled={busy}
                    aria-label={t('security.removeNamed', { name: x.name })}
                    onClick={() => send({ type: 'factor.remove', id: x.factor_id })}
                  >
                    {t('security.remove')}
                  </button>
                </li>
              ))}
            </ul>
          )}

          {state.matches('totpShowing') || state.matches('confirmingTotp') ? (
            <TotpSetup
              totp={state.context.totp}
              confirming={state.matches('confirmingTotp')}
              errors={state.context.fieldErrors}
              onConfirm={(code, name) => send({ type: 'totp.confirm', code, name })}
              onCancel={() => send({ type: 'totp.cancel' })}
            />
          ) : (
            <div className={s.adders}>
              {!hasTotp && (
                <button
                  type="button"
                  className={f.primary}
                  disabled={busy}
                  onClick={() => send({ type: 'totp.add' })}
                >
                  {t(state.matches('startingTotp') ? 'security.starting' : 'security.addTotp')}
                </button>
              )}
              {passkeys && (
                <form
                  className={s.passkeyForm}
                  onSubmit={(e) => {
                    e.preventDefault();
                    send({ type: 'passkey.add', name: passkeyName.trim() });
                  }}
                >
                  <div className={f.field}>
                    <label htmlFor="passkey-name">{t('security.passkeyName')}</label>
                    <input
                      id="passkey-name"
                      value={passkeyName}
                      maxLength={60}
                      placeholder={t('security.passkeyNamePlaceholder')}
                      onChange={(e) => setPasskeyName(e.target.value)}
                    />
                  </div>
                  <button type="submit" className={f.secondary} disabled={busy}>
                    {t(state.matches('addingPasskey') ? 'security.addingPasskey' : 'security.addPasskey')}
                  </button>
                </form>
              )}
            </div>
          )}
          {hasTotp && <p className={u.help}>{t('security.oneApp')}</p>}

          <h3>{t('security.codesTitle')}</h3>
          <p className={u.help}>
            {factors.factors.length === 0
              ? t('security.codesNone')
              : t('security.codesLeft', { count: factors.recovery_left })}
          </p>
          {factors.factors.length > 0 && (
            <button
              type="button"
              className={f.secondary}
              disabled={busy}
              onClick={() => send({ type: 'codes.renew' })}
            >
              {t('security.codesRenew')}
            </button>
          )}

          <Sessions
            sessions={sessions}
            busy={busy}
            when={when}
            onEnd={(id) => send({ type: 'session.end', id })}
          />
        </>
      )}

      <Modal
        open={state.matches('confirmingRemove') || (state.matches('removing') && removing !== null)}
        title={t('security.removeTitle')}
        onClose={() => send({ type: 'remove.cancel' })}
      >
        <p>{t('security.removeText')}</p>
        <p className={f.which}>{factors?.factors.find((x) => x.factor_id === removing)?.name}</p>
        <div className={f.dialogActions}>
          <button type="button" className={f.secondary} onClick={() => send({ type: 'remove.cancel' })}>
            {t('actions.cancel')}
          </button>
          <button
            type="button"
            className={f.danger}
            disabled={state.matches('removing')}
            onClick={() => send({ type: 'remove.confirm' })}
          >
            {t('security.remove')}
          </button>
        </div>
      </Modal>

      <ProofDialog
        open={
          state.matches('proving') ||
          state.matches('reauthenticating') ||
          state.matches('reauthenticatingWithPasskey')
        }
        factors={factors}
        busy={!state.matches('proving')}
        errors={state.context.fieldErrors}
        passkeys={passkeys}
        onSubmit={(password, code) => send({ type: 'proof.submit', password, code })}
        onPasskey={() => send({ type: 'proof.passkey' })}
        onCancel={() => send({ type: 'proof.cancel' })}
      />

      <RecoveryCodes codes={state.context.codes} onDone={() => send({ type: 'codes.done' })} />
    </section>
  );
}

/** The authenticator app being added: its QR code, its key as text, and its first code. */
function TotpSetup({
  totp,
  confirming,
  errors,
  onConfirm,
  onCancel,
}: {
  totp: { secret: string; uri: string; qr_svg: string } | null;
  confirming: boolean;
  errors: Record<string, string>;
  onConfirm(code: string, name: string): void;
  onCancel(): void;
}) {
  const { t } = useTranslation('admin');
  const [code, setCode] = useState('');
  const [name, setName] = useState(t('security.totpDefaultName'));
  if (!totp) return null;
  // the server's SVG, as an image (never as markup on the page)
  const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(totp.qr_svg)}`;
  return (
    <form
      className={s.totp}
      noValidate
      aria-labelledby="totp-title"
      onSubmit={(e) => {
        e.preventDefault();
        onConfirm(code, name);
      }}
    >
      <h4 id="totp-title">{t('security.totpTitle')}</h4>
      <ol className={s.steps}>
        <li>
          <p>{t('security.totpScan')}</p>
          <img className={s.qr} src={qr} alt={t('security.totpQrAlt')} width={180} height={180} />
          <p>{t('security.totpKey')}</p>
          <code className={s.secret} aria-label={t('security.totpKeyLabel')}>
            {totp.secret.replace(/(.{4})/g, '$1 ').trim()}
          </code>
        </li>
        <li>
          <p>{t('security.totpEnter')}</p>
          {errors.form && (
            <p role="alert" className={f.error}>
              {errors.form}
            </p>
          )}
          <div className={f.field}>
            <label htmlFor="totp-code">{t('security.totpCode')}</label>
            <input
              id="totp-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={8}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              aria-invalid={errors.code ? true : undefined}
              aria-describedby={errors.code ? 'totp-code-error' : undefined}
            />
            {errors.code && (
              <p id="totp-code-error" role="alert" className={f.error}>
                {errors.code}
              </p>
            )}
          </div>
          <div className={f.field}>
            <label htmlFor="totp-name">{t('security.totpName')}</label>
            <input
              id="totp-name"
              maxLength={60}
              value={name}
              onChange={(e) => setName(e.target.value)}
              aria-invalid={errors.name ? true : undefined}
            />
          </div>
        </li>
      </ol>
      <div className={f.actions}>
        <button type="submit" className={f.primary} disabled={confirming}>
          {t(confirming ? 'security.confirming' : 'security.confirm')}
        </button>
        <button type="button" className={f.secondary} disabled={confirming} onClick={onCancel}>
          {t('actions.cancel')}
        </button>
      </div>
    </form>
  );
}

/** The person's signed-in devices: this one marked; end one, or all the others. */
function Sessions({
  sessions,
  busy,
  when,
  onEnd,
}: {
  sessions: SessionRow[];
  busy: boolean;
  when(iso: string): string;
  onEnd(id: string): void;
}) {
  const { t } = useTranslation('admin');
  const others = sessions.filter((x) => !x.current).length;
  return (
    <>
      <h3>{t('security.sessionsTitle')}</h3>
      <ul className={s.list} aria-label={t('security.sessionsTitle')}>
        {sessions.map((x) => (
          <li key={x.id} className={s.item}>
            <div>
              <strong>{x.browser ?? t('security.unknownBrowser')}</strong>{' '}
              {x.current && <span className={s.current}>{t('security.thisDevice')}</span>}
              <p className={s.meta}>
                {x.ip ? `${x.ip} · ` : ''}
                {t('security.signedIn', { when: when(x.created_at) })} ·{' '}
                {t('security.lastSeen', { when: when(x.last_seen_at) })}
              </p>
            </div>
            {!x.current && (
              <button
                type="button"
                className={f.secondary}
                disabled={busy}
                aria-label={t('security.endNamed', { name: x.browser ?? t('security.unknownBrowser') })}
                onClick={() => onEnd(x.id)}
              >
                {t('security.end')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {others > 0 && (
        <button type="button" className={f.secondary} disabled={busy} onClick={() => onEnd('others')}>
          {t('security.endOthers', { count: others })}
        </button>
      )}
    </>
  );
}

/** New recovery codes, shown once: copy, download, then "I have saved them". */
function RecoveryCodes({ codes, onDone }: { codes: string[] | null; onDone(): void }) {
  const { t } = useTranslation('admin');
  const [copied, setCopied] = useState(false);
  if (!codes) return null;
  const text = `${t('security.codesFileTitle')}\n\n${codes.join('\n')}\n`;
  return (
    <Modal open title={t('security.codesShownTitle')} onClose={onDone} closeOnBackdrop={false}>
      <p>{t('security.codesShownText')}</p>
      <ol className={s.codes} aria-label={t('security.codesTitle')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className={f.dialogActions}>
        <button
          type="button"
          className={f.secondary}
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {t(copied ? 'security.codesCopied' : 'security.codesCopy')}
        </button>
        <a
          className={f.secondary}
          download="manna-recovery-codes.txt"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
        >
          {t('security.codesDownload')}
        </a>
        <button type="button" className={f.primary} onClick={onDone}>
          {t('security.codesSaved')}
        </button>
      </div>
    </Modal>
  );
}
