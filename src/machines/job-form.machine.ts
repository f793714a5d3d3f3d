import type { JobOpeningRow } from '../../contract/jobs';
import { htmlToText } from '../../contract/rich-text';
import {
  EMPTY_JOB_FORM,
  JOB_FORM_FIELDS,
  isRichTextField,
  jobFieldFilled,
  jobFormErrors,
  type JobErrorCode,
  type JobFormField,
  type JobFormValues,
  type ManageJobOpeningBody,
} from '../../contract/jobs-admin';
import {
  changedOf,
  isChangedIn,
  recordEditor,
  unlockedAt as unlockedOf,
  unlockStateOf as unlockStateAt,
  unlockStatesOf,
  type EditConflict,
  type QueuedChange,
  type ReadField,
  type RecordDraft,
  type RecordEditorContext,
} from './record-editor.machine';

/**
 * The admin job form, 'Add Job Opening' / 'Edit Job Opening': a record editor
 * (record-editor.machine.ts, docs/decisions/036-record-editor.md) with what is the opening's own.
 *
 * - Fields unlock in order: a field opens once every earlier one has a value (a remote opening may
 *   leave its place empty). The `editing.unlock` region has one state per field, so the inspector
 *   shows the order.
 * - Submit validates in field order and shows only the first error, focusing its field; the error
 *   stays until that field changes (the spec's 500 ms display hid it before it could be read:
 *   docs/decisions/030-opening-text.md).
 * - 'Keep both' joins their text and mine in each rich-text field both changed.
 * - A save sends mode 1 (create) or 2 (update, with only the fields the person changed and the
 *   version the form opened); a new opening is a draft until published
 *   (docs/decisions/032-closing-an-opening.md).
 */
export type JobFormContext = RecordEditorContext<
  JobOpeningRow,
  JobFormValues,
  JobFormField,
  JobErrorCode,
  null
>;
/** A form kept on the device as it was typed. */
export type JobDraft = RecordDraft<JobFormValues>;
/** A change kept in the send queue that met someone else's, taken up again by its author. */
export type QueuedJobChange = QueuedChange<JobOpeningRow, JobFormValues>;
/** Their opening beside what this form holds. */
export type JobConflict = EditConflict<JobFormValues>;

/** What the save sends: the body of POST manage-job-openings, and the version an update is based on. */
export interface SaveJobInput {
  body: ManageJobOpeningBody;
  version: number | undefined;
}

/** The fields' order of unlocking, as the states of the `editing.unlock` region. */
export const UNLOCK_STATES = unlockStatesOf<JobFormValues>(JOB_FORM_FIELDS);
export type UnlockState = (typeof UNLOCK_STATES)[number];

/** Which fields are open while the unlock region rests on `at`. */
export const unlockedAt = (at: UnlockState) => unlockedOf(JOB_FORM_FIELDS, at);
/** Where the unlock region of a snapshot rests (`complete` outside editing). */
export const unlockStateOf = (snapshot: { value: unknown }): UnlockState => unlockStateAt<JobFormField>(snapshot);

/** How a person reads a field: text trimmed, rich text as text. */
const readJobField: ReadField<JobFormValues> = (field, value) =>
  isRichTextField(field) ? htmlToText(value) : value.trim();

/** The fields whose values differ as a person reads them (text trimmed, rich text as text). */
export const changedFields = (values: JobFormValues, opened: JobFormValues): JobFormField[] =>
  changedOf(JOB_FORM_FIELDS, readJobField, values, opened);

/** Whether `values` differ from `opened` as a person reads them. */
export const isChanged = (values: JobFormValues, opened: JobFormValues): boolean =>
  isChangedIn(JOB_FORM_FIELDS, readJobField, { fields: values, opened, file: null });

export const valuesOf = (job: JobOpeningRow): JobFormValues => ({
  job_title: job.job_title,
  department: job.department,
  location: job.location,
  job_type_id: String(job.job_type_id),
  // an opening kept before these fields (or a customer's backend) is on site, its place unset
  work_type: job.work_type ?? 'onsite',
  country: job.country ?? '',
  locality: job.locality ?? '',
  description: job.description,
  requirement: job.requirement,
  about_role: job.about_role,
  responsibility: job.responsibility,
});

/** An update sends only what the person changed, based on the version the form opened. */
export function saveJobInput(
  context: Pick<JobFormContext, 'mode' | 'recordId' | 'fields' | 'opened' | 'version'>,
): SaveJobInput {
  const { fields: values } = context;
  if (context.mode === 'create')
    return {
      body: { mode: 1, job_id: 0, ...values, job_type_id: Number(values.job_type_id) },
      version: undefined,
    };
  const changed = changedFields(values, context.opened);
  return {
    body: {
      mode: 2,
      job_id: context.recordId,
      ...Object.fromEntries(changed.map((f) => [f, values[f]])),
      ...(changed.includes('job_type_id') && { job_type_id: Number(values.job_type_id) }),
    },
    version: context.version ?? undefined,
  };
}

export const jobFormMachine = recordEditor<
  JobOpeningRow,
  JobFormValues,
  JobFormField,
  JobErrorCode,
  null,
  SaveJobInput
>({
  id: 'jobForm',
  fields: JOB_FORM_FIELDS,
  empty: EMPTY_JOB_FORM,
  fieldsOf: valuesOf,
  idOf: (job) => job.job_id,
  read: readJobField,
  errorsOf: (context) => jobFormErrors(context.fields),
  errorFields: JOB_FORM_FIELDS,
  firstErrorOnly: true,
  joinable: isRichTextField,
  saveInput: saveJobInput,
  unlock: jobFieldFilled,
});
