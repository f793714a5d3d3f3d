import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CLOSE_REASON_MAX, undecidedOf } from '../../../../contract/jobs-admin';
import { Modal } from '../../../components/modal';
import type { AdminOpeningsEvent, StatusChange } from '../../../machines/admin-openings.machine';
import { FieldError } from '../shared/field-error';
import s from './openings.module.css';

/**
 * "Close job opening": what happens to the applications still being decided (the machine's
 * `askingClose`). Keep them (the default), or move them to Rejected with a reason, optionally
 * mailing each candidate the rejection in the language they applied in.
 * docs/decisions/032-closing-an-opening.md.
 */
export function CloseOpeningDialog({
  change,
  error,
  send,
}: {
  change: StatusChange | null;
  error: 'reasonRequired' | 'reasonTooLong' | null;
  send: (event: AdminOpeningsEvent) => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <Modal
      open={change !== null}
      title={t('openings.closeTitle')}
      onClose={() => send({ type: 'close.cancel' })}
    >
      {/* the form is made anew for each question, so each starts from Keep */}
      {change && <CloseForm key={change.job.job_id} change={change} error={error} send={send} />}
    </Modal>
  );
}

function CloseForm({
  change,
  error,
  send,
}: {
  change: StatusChange;
  error: 'reasonRequired' | 'reasonTooLong' | null;
  send: (event: AdminOpeningsEvent) => void;
}) {
  const { t } = useTranslation('admin');
  const [choice, setChoice] = useState<'keep' | 'reject'>('keep');
  const [reason, setReason] = useState('');
  const [mail, setMail] = useState(true);
  const count = undecidedOf(change.job);
  const rejecting = choice === 'reject';
  const message = error && rejecting ? t(`openings.closeAsk.${error}`, { max: CLOSE_REASON_MAX, count }) : null;
  return (
    <>
      <p className={s.which}>{change.job.job_title}</p>
      <form
        className={s.form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'close.decide', applications: choice, reason, mail });
        }}
      >
        <fieldset className={s.choices}>
          <legend>{t('openings.closeAsk.undecided', { count })}</legend>
          <label>
            <input type="radio" name="applications" checked={!rejecting} onChange={() => setChoice('keep')} />
            {t('openings.closeAsk.keep', { count })}
          </label>
          <label>
            <input
              type="radio"
              name="applications"
              checked={rejecting}
              onChange={() => setChoice('reject')}
            />
            {t('openings.closeAsk.reject', { count })}
          </label>
        </fieldset>
        {rejecting && (
          <>
            <div className={s.field}>
              <label htmlFor="close-reason">{t('openings.closeAsk.reason')}</label>
              <input
                id="close-reason"
                value={reason}
                maxLength={CLOSE_REASON_MAX}
                placeholder={t('openings.closeAsk.reasonPlaceholder')}
                aria-invalid={message ? true : undefined}
                aria-describedby={message ? 'close-reason-error close-reason-hint' : 'close-reason-hint'}
                onChange={(e) => setReason(e.target.value)}
              />
              <p id="close-reason-hint" className={s.hint}>
                {t('openings.closeAsk.reasonHint')}
              </p>
              <FieldError id="close-reason-error" message={message} />
            </div>
            <label className={s.check}>
              <input type="checkbox" checked={mail} onChange={(e) => setMail(e.target.checked)} />
              {t('openings.closeAsk.mail', { count })}
            </label>
          </>
        )}
        <div className={s.actions}>
          <button type="button" className={s.secondary} onClick={() => send({ type: 'close.cancel' })}>
            {t('actions.cancel')}
          </button>
          <button type="submit" className={s.primary}>
            {t('openings.close')}
          </button>
        </div>
      </form>
    </>
  );
}
