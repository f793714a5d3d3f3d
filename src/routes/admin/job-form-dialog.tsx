import { useMachine } from '@xstate/react';
import { Suspense, useEffect, useImperativeHandle, useMemo, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { WORK_TYPES, type JobOpeningRow, type JobTypeRow } from '../../../contract/jobs';
import { countryName, countryOptions } from '../../../contract/countries';
import { htmlToText } from '../../../contract/rich-text';
import {
  JOB_RICH_MIN,
  JOB_TEXT_MAX,
  JOB_TEXT_MIN,
  RICH_TEXT_FIELDS,
  isRichTextField,
  refusedCharacter,
  shownCharacter,
  type JobFormField,
} from '../../../contract/jobs-admin';
import { ConflictPrompt } from '../../components/conflict-prompt';
import { DraftPrompts } from '../../components/discard-prompt';
import { Modal } from '../../components/modal';
import {
  isChanged,
  unlockedAt,
  unlockStateOf,
  type JobFormMode,
  type QueuedJobChange,
} from '../../machines/job-form.machine';
import { HistoryPanel } from './history-panel';
import { OthersEditing } from './others-editing';
import { historyLive } from './history.live';
import { useAdminSession } from './admin-context';
import { preloadEditor, RichTextEditor } from './lazy-editor';
import { jobFormLive } from './job-form.live';
import s from './openings.module.css';
import { FieldError } from './field-error';

// The editor (quill) is its own chunk, loaded with the first form that needs it.

export interface JobFormDialogHandle {
  open(job?: JobOpeningRow): void;
  /** Takes up a change made offline that met someone else's; false while the form is in use. */
  resume(change: QueuedJobChange): boolean;
}

const TEXT_FIELDS = ['job_title', 'department', 'location'] as const;

/** The 'Add Job Opening' / 'Edit Job Opening' modal. */
export function JobFormDialog({
  jobTypes,
  onSaved,
  ref,
}: {
  jobTypes: JobTypeRow[];
  onSaved(mode: JobFormMode, row: JobOpeningRow): void;
  ref?: Ref<JobFormDialogHandle>;
}) {
  const { t, i18n } = useTranslation('admin');
  const { user } = useAdminSession();

  const [machine] = useState(() => jobFormLive(i18n, user.user_id, onSaved));
  const [state, send] = useMachine(machine);
  // the editor's chunk comes with the screen: a dialog opened after the connection dropped has it
  useEffect(() => void preloadEditor().catch(() => undefined), []);
  // the History view: a restore closes the form and shows the restored opening in the list
  const [historyMachine] = useState(() =>
    historyLive(i18n, (row) => {
      send({ type: 'form.cancel' });
      onSaved('edit', row as JobOpeningRow);
    }),
  );
  const [history, sendHistory] = useMachine(historyMachine);
  const closed = state.matches('closed');
  useImperativeHandle(
    ref,
    () => ({
      open: (job) => send({ type: 'form.open', job }),
      resume: (change) => {
        if (!closed) return false;
        send({ type: 'form.resume', change });
        return true;
      },
    }),
    [send, closed],
  );

  const { values, error, mode, conflict } = state.context;
  const open = !state.matches('closed');
  const inHistory = !history.matches('closed');
  // the form closed (Escape, a save): its history view closes with it
  useEffect(() => {
    if (!open) sendHistory({ type: 'history.close' });
  }, [open, sendHistory]);
  // while someone else's save is shown beside this one, the form waits for a choice
  const saving = state.matches('saving') || state.matches('conflict');
  const readable = (field: JobFormField, value: string) =>
    isRichTextField(field)
      ? htmlToText(value)
      : field === 'job_type_id'
        ? (jobTypes.find((jt) => String(jt.job_type_id) === value)?.job_type_name ?? value)
        : field === 'work_type'
          ? t(`jobForm.workTypes.${value}`, { defaultValue: value })
          : field === 'country' && value
            ? countryName(value, i18n.language)
            : value;
  const unlocked = unlockedAt(unlockStateOf(state));
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  // the text of the field's code, naming the field in the reader's language
  const errorFor = (field: JobFormField) =>
    error?.field === field
      ? t(`jobErrors.${error.code}`, {
          field: t(`fields.${field}`),
          name: t(`jobErrors.names.${field}`, { defaultValue: t(`fields.${field}`) }),
          min: isRichTextField(field) ? JOB_RICH_MIN : JOB_TEXT_MIN,
          max: JOB_TEXT_MAX,
          char: shownCharacter(refusedCharacter(values[field]) ?? '<'),
        })
      : null;
  const errorId = (field: JobFormField) => `job-${field}-error`;
  const change = (field: JobFormField, value: string) => send({ type: 'field.change', field, value });

  return (
    <Modal
      open={open}
      wide
      title={t(mode === 'edit' ? 'jobForm.editTitle' : 'jobForm.addTitle')}
      onClose={() => send({ type: 'form.dismiss' })}
    >
      <DraftPrompts
        offered={state.matches({ editing: { restore: 'offering' } }) ? state.context.draft : null}
        confirming={state.matches('confirmingDiscard')}
        send={send}
      />
      {state.matches('conflict') && conflict && (
        <ConflictPrompt
          changedBy={conflict.changedBy}
          changedAt={conflict.changedAt}
          fields={conflict.fields.map((field) => ({
            label: t(`fields.${field}`),
            theirs: readable(field, conflict.theirs[field]),
            yours: readable(field, values[field]),
          }))}
          canKeepBoth={state.can({ type: 'conflict.keepBoth' })}
          onKeepMine={() => send({ type: 'conflict.keepMine' })}
          onTakeTheirs={() => send({ type: 'conflict.takeTheirs' })}
          onKeepBoth={() => send({ type: 'conflict.keepBoth' })}
        />
      )}
      <OthersEditing entity="job_opening" recordId={open && mode === 'edit' ? state.context.jobId : null} />
      {inHistory && (
        <HistoryPanel
          state={history}
          send={sendHistory}
          labelOf={(field) => (field === 'status' ? t('history.status') : t(`fields.${field}`))}
          readable={(field, value) =>
            field === 'status'
              ? t(`openings.statuses.${String(value)}`, { defaultValue: String(value ?? '') })
              : readable(field as JobFormField, String(value ?? ''))
          }
        />
      )}
      <form
        hidden={inHistory}
        className={s.form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'form.submit' });
        }}
      >
        <div className={`${s.row} ${s.fourUp}`}>
          {TEXT_FIELDS.map((field) => (
            <div key={field} className={s.field}>
              <label htmlFor={`job-${field}`}>{t(`fields.${field}`)}</label>
              <input
                id={`job-${field}`}
                value={values[field]}
                maxLength={JOB_TEXT_MAX}
                disabled={!unlocked[field] || saving}
                aria-invalid={errorFor(field) ? true : undefined}
                aria-describedby={errorFor(field) ? errorId(field) : undefined}
                onChange={(e) => change(field, e.target.value)}
              />
              <FieldError id={errorId(field)} message={errorFor(field)} />
            </div>
          ))}
          <div className={s.field}>
            <label htmlFor="job-job_type_id">{t('fields.job_type_id')}</label>
            <select
              id="job-job_type_id"
              value={values.job_type_id}
              disabled={!unlocked.job_type_id || saving}
              aria-invalid={errorFor('job_type_id') ? true : undefined}
              aria-describedby={errorFor('job_type_id') ? errorId('job_type_id') : undefined}
              onChange={(e) => change('job_type_id', e.target.value)}
            >
              <option value="">{t('jobForm.selectType')}</option>
              {jobTypes.map((jt) => (
                <option key={jt.job_type_id} value={String(jt.job_type_id)}>
                  {jt.job_type_name}
                </option>
              ))}
            </select>
            <FieldError id={errorId('job_type_id')} message={errorFor('job_type_id')} />
          </div>
          <div className={s.field}>
            <label htmlFor="job-work_type">{t('fields.work_type')}</label>
            <select
              id="job-work_type"
              value={values.work_type}
              disabled={!unlocked.work_type || saving}
              aria-describedby="job-place-hint"
              onChange={(e) => change('work_type', e.target.value)}
            >
              {WORK_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`jobForm.workTypes.${type}`)}
                </option>
              ))}
            </select>
          </div>
          <div className={s.field}>
            <label htmlFor="job-country">{t('fields.country')}</label>
            <select
              id="job-country"
              value={values.country}
              disabled={!unlocked.country || saving}
              aria-invalid={errorFor('country') ? true : undefined}
              aria-describedby={errorFor('country') ? errorId('country') : undefined}
              onChange={(e) => change('country', e.target.value)}
            >
              <option value="">
                {t(values.work_type === 'remote' ? 'jobForm.anyCountry' : 'jobForm.selectCountry')}
              </option>
              {countries.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
            <FieldError id={errorId('country')} message={errorFor('country')} />
          </div>
          <div className={s.field}>
            <label htmlFor="job-locality">{t('fields.locality')}</label>
            <input
              id="job-locality"
              value={values.locality}
              maxLength={JOB_TEXT_MAX}
              disabled={!unlocked.locality || saving}
              aria-invalid={errorFor('locality') ? true : undefined}
              aria-describedby={errorFor('locality') ? errorId('locality') : undefined}
              onChange={(e) => change('locality', e.target.value)}
            />
            <FieldError id={errorId('locality')} message={errorFor('locality')} />
          </div>
        </div>
        <p id="job-place-hint" className={s.hint}>
          {t('jobForm.placeHint')}
        </p>

        {RICH_TEXT_FIELDS.map((field) => (
          <div key={field} className={s.field}>
            <span className={s.label} id={`job-${field}-label`}>
              {t(`fields.${field}`)}
            </span>
            <Suspense
              fallback={
                <div className={s.editorLoading} role="status">
                  {t('jobForm.editorLoading')}
                </div>
              }
            >
              <RichTextEditor
                id={`job-${field}`}
                label={t(`fields.${field}`)}
                value={values[field]}
                onChange={(html) => change(field, html)}
                disabled={!unlocked[field] || saving}
                placeholder={t(unlocked[field] ? `jobForm.placeholder.${field}` : 'jobForm.locked')}
                invalid={errorFor(field) !== null}
                describedBy={errorFor(field) ? errorId(field) : undefined}
              />
            </Suspense>
            <FieldError id={errorId(field)} message={errorFor(field)} />
          </div>
        ))}

        <div className={s.actions}>
          {mode === 'edit' && (
            <button
              type="button"
              className={s.secondary}
              // what is typed and not saved would be hidden behind the history: save or cancel first
              disabled={saving || isChanged(values, state.context.opened)}
              title={isChanged(values, state.context.opened) ? t('history.unsaved') : undefined}
              onClick={() =>
                sendHistory({
                  type: 'history.open',
                  record: {
                    entity: 'job_opening',
                    recordId: state.context.jobId,
                    version: state.context.version ?? 1,
                  },
                })
              }
            >
              {t('history.open')}
            </button>
          )}
          <button type="button" className={s.secondary} onClick={() => send({ type: 'form.cancel' })}>
            {t('actions.cancel')}
          </button>
          <button type="submit" className={s.primary} disabled={saving}>
            {t(
              state.matches('saving')
                ? 'jobForm.updating'
                : mode === 'edit'
                  ? 'jobForm.update'
                  : 'jobForm.create',
            )}
          </button>
        </div>
      </form>
    </Modal>
  );
}
