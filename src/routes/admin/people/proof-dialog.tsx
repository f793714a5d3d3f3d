import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchFactors, passkeysSupported, reauthenticate, reauthenticateWithPasskey } from '../../../api/auth';
import { onProofNeeded } from '../../../api/client';
import type { FactorsAnswer } from '../../../../contract/auth';
import { Modal } from '../../../components/modal';
import { freshProofMachine } from '../../../machines/fresh-proof.machine';
import f from '../shared/admin-controls.module.css';

const freshProofLive = freshProofMachine.provide({
  actors: {
    loadFactors: fromPromise(() => fetchFactors()),
    reauth: fromPromise(({ input }) => reauthenticate(input)),
    reauthPasskey: fromPromise(() => reauthenticateWithPasskey()),
  },
});

/**
 * The back office's one "Confirm it is you" (docs/decisions/009-security-model.md): any change the
 * server refuses for want of a fresh proof waits here for the person's password and code (or a
 * passkey), then goes on; Cancel leaves the refusal on the screen that asked.
 */
export function FreshProof() {
  const [state, send] = useMachine(freshProofLive);
  const [passkeys] = useState(passkeysSupported);
  useEffect(
    () => onProofNeeded(() => new Promise<boolean>((settle) => send({ type: 'proof.ask', settle }))),
    [send],
  );
  return (
    <ProofDialog
      forChange
      open={!state.matches('idle') && !state.matches('loading')}
      factors={state.context.factors}
      busy={!state.matches('asking')}
      errors={state.context.fieldErrors}
      passkeys={passkeys}
      onSubmit={(password, code) => send({ type: 'proof.submit', password, code })}
      onPasskey={() => send({ type: 'proof.passkey' })}
      onCancel={() => send({ type: 'proof.cancel' })}
    />
  );
}

/** "Confirm it is you": the password and a code (or a passkey) before a change that needs it. */
export function ProofDialog(props: ProofProps & { open: boolean; onCancel(): void }) {
  const { t } = useTranslation('admin');
  return (
    <Modal open={props.open} title={t('security.proofTitle')} onClose={props.onCancel}>
      {/* mounted only while open: what was typed does not wait for the next time */}
      {props.open && <ProofForm {...props} />}
    </Modal>
  );
}

interface ProofProps {
  /** For a change of users, roles or sessions (else: of the person's own factors). */
  forChange?: boolean;
  factors: FactorsAnswer | null;
  busy: boolean;
  errors: Record<string, string>;
  passkeys: boolean;
  onSubmit(password: string, code: string): void;
  onPasskey(): void;
  onCancel(): void;
}

function ProofForm({
  forChange,
  factors,
  busy,
  errors,
  passkeys,
  onSubmit,
  onPasskey,
  onCancel,
}: ProofProps) {
  const { t } = useTranslation('admin');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const kinds = new Set(factors?.factors.map((x) => x.kind));
  const askCode = kinds.has('totp') || (factors?.recovery_left ?? 0) > 0;
  const withPasskey = kinds.has('passkey') && passkeys;
  return (
    <form
      className={f.form}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(password, code);
      }}
    >
      <p>
        {forChange
          ? t(askCode || !withPasskey ? 'security.proofChangeText' : 'security.proofChangePasskeyText')
          : t(askCode || !withPasskey ? 'security.proofText' : 'security.proofPasskeyText')}
      </p>
      {errors.form && (
        <p role="alert" className={f.error}>
          {errors.form}
        </p>
      )}
      {(askCode || !withPasskey) && (
        <>
          <div className={f.field}>
            <label htmlFor="proof-password">{t('login.password')}</label>
            <input
              id="proof-password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={errors.password ? 'proof-password-error' : undefined}
            />
            {errors.password && (
              <p id="proof-password-error" role="alert" className={f.error}>
                {errors.password}
              </p>
            )}
          </div>
          {askCode && (
            <div className={f.field}>
              <label htmlFor="proof-code">{t('security.proofCode')}</label>
              <input
                id="proof-code"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.target.value)}
                aria-invalid={errors.code ? true : undefined}
                aria-describedby={errors.code ? 'proof-code-error' : undefined}
              />
              {errors.code && (
                <p id="proof-code-error" role="alert" className={f.error}>
                  {errors.code}
                </p>
              )}
            </div>
          )}
        </>
      )}
      <div className={f.dialogActions}>
        <button type="button" className={f.secondary} onClick={onCancel}>
          {t('actions.cancel')}
        </button>
        {withPasskey && (
          <button
            type="button"
            className={askCode ? f.secondary : f.primary}
            disabled={busy}
            onClick={onPasskey}
          >
            {t('secondStep.passkey')}
          </button>
        )}
        {(askCode || !withPasskey) && (
          <button type="submit" className={f.primary} disabled={busy}>
            {t(busy ? 'security.proving' : 'security.prove')}
          </button>
        )}
      </div>
    </form>
  );
}
