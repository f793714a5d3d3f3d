import { useMachine } from '@xstate/react';
import { useMemo, useState, type Ref, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { WORK_TYPES, type JobOpeningRow, type JobTypeRow } from '../../../../contract/jobs';
import { countryName, countryOptions } from '../../../../contract/countries';
import { htmlToText } from '../../../../contract/rich-text';
import {
  JOB_RICH_MIN,
  JOB_TEXT_MAX,
  JOB_TEXT_MIN,
  RICH_TEXT_FIELDS,
  isRichTextField,
  refusedCharacter,
  shownCharacter,
  type JobFormField,
  type JobFormValues,
} from '../../../../contract/jobs-admin';
import { isChanged, unlockedAt, unlockStateOf } from '../../../machines/job-form.machine';
import { useAdminSession } from '../shared/admin-context';
import { RichTextEditor } from '../shared/lazy-editor';
import { jobFormLive } from './job-form.live';
import { RecordEditorFrame, useRecordEditorHandle, type RecordEditorHandle } from '../shared/record-editor-frame';
import s from './openings.module.css';
import { FieldError } from '../shared/field-error';

// The editor (quill) is its own chunk, loaded with the first form that needs it.

export type JobFormDialogHandle = RecordEditorHandle<JobOpeningRow, JobFormValues>;

const TEXT_FIELDS = ['job_title', 'department', 'location'] as const;

/** The 'Add Job Opening' / 'Edit Job Opening' modal: the record editor's frame with the opening's fields. */
export function JobFormDialog({
  jobTypes,
  onSaved,
  ref,
}: {
  jobTypes: JobTypeRow[];
  /** A saved opening, `created` when it is new. */
  onSaved(row: JobOpeningRow, created: boolean): void;
  ref?: Ref<JobFormDialogHandle>;
}) {
  const { t, i18n } = useTranslation('admin');
  const { user } = useAdminSession();

  const [machine] = useState(() => jobFormLive(i18n, user.user_id, onSaved));
  const [state, send] = useMachine(machine);
  useRecordEditorHandle(ref, state, send);

  const { fields: values, errors, mode } = state.context;
  // while someone else's save is shown beside this one, the form waits for a choice
  const saving = state.matches('submitting') || state.matches('conflict');
  const readable = (field: JobFormField, value: unknown) => {
    const text = String(value ?? '');
    return isRichTextField(field)
      ? htmlToText(text)
      : field === 'job_type_id'
        ? (jobTypes.find((jt) => String(jt.job_type_id) === text)?.job_type_name ?? text)
        : field === 'work_type'
          ? t(`jobForm.workTypes.${text}`, { defaultValue: text })
          : field === 'country' && text
            ? countryName(text, i18n.language)
            : text;
  };
  const unlocked = unlockedAt(unlockStateOf(state));
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  // the text of the field's code, naming the field in the reader's language
  const errorFor = (field: JobFormField) => {
    const code = errors[field];
    return code
      ? t(`jobErrors.${code}`, {
          field: t(`fields.${field}`),
          name: t(`jobErrors.names.${field}`, { defaultValue: t(`fields.${field}`) }),
          min: isRichTextField(field) ? JOB_RICH_MIN : JOB_TEXT_MIN,
          max: JOB_TEXT_MAX,
          char: shownCharacter(refusedCharacter(values[field]) ?? '<'),
        })
      : null;
  };
  const errorId = (field: JobFormField) => `job-${field}-error`;
  const change = (field: JobFormField, value: string) => send({ type: 'field.change', field, value });

  return (
    <RecordEditorFrame
      state={state}
      send={send}
      entity="job_opening"
      title={t(mode === 'edit' ? 'jobForm.editTitle' : 'jobForm.addTitle')}
      labelOf={(field) => t(`fields.${field}`)}
      readable={readable}
      statusLabel={(value) => t(`openings.statuses.${String(value)}`, { defaultValue: String(value ?? '') })}
      changed={isChanged(values, state.context.opened)}
      submitLabel={t(
        state.matches('submitting')
          ? 'jobForm.updating'
          : mode === 'edit'
            ? 'jobForm.update'
            : 'jobForm.create',
      )}
      onRestored={(row) => onSaved(row, false)}
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
    </RecordEditorFrame>
  );
}
