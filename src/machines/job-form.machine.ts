import { assign, fromPromise, setup } from 'xstate';
import type { JobOpeningRow } from '../api/contract/jobs';
import {
  EMPTY_JOB_FORM,
  JOB_FORM_FIELDS,
  firstJobFormError,
  plainText,
  isRichTextField,
  type JobFormField,
  type JobFormValues,
} from '../api/contract/jobs-admin';

/**
 * The admin job form (spec sections 2, 4, 5 and 8): the 'Add Job Opening' / 'Edit Job Opening'
 * modal. Fields unlock in order (a field opens once every earlier one has a value); submit
 * validates in field order, shows only the first error, focuses that field and clears the error
 * display after 500 ms; saving shows 'Updating...'; a saved job closes and resets the form and is
 * handed to the list; a failed save shows an error toast and keeps what was typed. A backdrop
 * click or Escape (`form.dismiss`) closes a form whose values are still those it opened with, and
 * asks 'Discard what you typed?' (`confirmingDiscard`) when they changed; Cancel closes at once.
 *
 * Effects the screen provides: `saveJob` (POST manage-job-openings), `focusField`,
 * `notifySaved` (success toast), `notifySaveFailed` (error toast), `jobSaved` (tells the list).
 */
export type JobFormMode = 'create' | 'edit';

export interface JobFormContext {
  mode: JobFormMode;
  jobId: number;
  values: JobFormValues;
  /** The values the form opened with (empty, or the job being edited): what "unchanged" means. */
  opened: JobFormValues;
  error: { field: JobFormField; message: string } | null;
}

export type JobFormEvent =
  | { type: 'form.open'; job?: JobOpeningRow }
  | { type: 'field.change'; field: JobFormField; value: string }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'form.dismiss' }
  | { type: 'discard.confirm' }
  | { type: 'discard.cancel' };

export interface SaveJobInput {
  mode: JobFormMode;
  jobId: number;
  values: JobFormValues;
}
export interface SaveJobOutput {
  message: string;
  row: JobOpeningRow;
}

/** A field has a value: text trimmed, rich text with its tags removed. */
export const hasValue = (field: JobFormField, value: string) =>
  isRichTextField(field) ? plainText(value).length > 0 : value.trim().length > 0;

/** Which fields are open for input: each one once every earlier field has a value. */
export function unlockedFields(values: JobFormValues): Record<JobFormField, boolean> {
  const out = {} as Record<JobFormField, boolean>;
  let open = true;
  for (const field of JOB_FORM_FIELDS) {
    out[field] = open;
    if (!hasValue(field, values[field])) open = false;
  }
  return out;
}

/** Whether `values` differ from `opened` as a person reads them (text trimmed, rich text as text). */
export function isChanged(values: JobFormValues, opened: JobFormValues): boolean {
  const read = (field: JobFormField, value: string) =>
    isRichTextField(field) ? plainText(value) : value.trim();
  return JOB_FORM_FIELDS.some((field) => read(field, values[field]) !== read(field, opened[field]));
}

export const valuesOf = (job: JobOpeningRow): JobFormValues => ({
  job_title: job.job_title,
  department: job.department,
  location: job.location,
  job_type_id: String(job.job_type_id),
  description: job.description,
  requirement: job.requirement,
  about_role: job.about_role,
  responsibility: job.responsibility,
});

const initialContext: JobFormContext = {
  mode: 'create',
  jobId: 0,
  values: EMPTY_JOB_FORM,
  opened: EMPTY_JOB_FORM,
  error: null,
};

export const jobFormMachine = setup({
  types: {
    context: {} as JobFormContext,
    events: {} as JobFormEvent,
  },
  actors: {
    saveJob: fromPromise<SaveJobOutput, SaveJobInput>(async () => {
      throw new Error('saveJob is provided by the app');
    }),
  },
  actions: {
    open: assign((_, params: { job?: JobOpeningRow }) =>
      params.job
        ? {
            mode: 'edit' as const,
            jobId: params.job.job_id,
            values: valuesOf(params.job),
            opened: valuesOf(params.job),
            error: null,
          }
        : { ...initialContext },
    ),
    setField: assign({
      values: ({ context }, params: { field: JobFormField; value: string }) => ({
        ...context.values,
        [params.field]: params.value,
      }),
    }),
    showFirstError: assign({ error: ({ context }) => firstJobFormError(context.values) }),
    clearError: assign({ error: null }),
    reset: assign(() => ({ ...initialContext })),
    /** Side effects, provided by the screen. */
    focusField: (_, _params: { field: JobFormField }) => {},
    notifySaved: (_, _params: { mode: JobFormMode; message: string }) => {},
    notifySaveFailed: (_, _params: { error: unknown }) => {},
    jobSaved: (_, _params: { mode: JobFormMode; row: JobOpeningRow }) => {},
  },
  guards: {
    isValid: ({ context }) => firstJobFormError(context.values) === null,
    isChanged: ({ context }) => isChanged(context.values, context.opened),
  },
  delays: {
    /** Spec section 9: job validation error display 500 ms. */
    errorDisplay: 500,
  },
}).createMachine({
  id: 'jobForm',
  initial: 'closed',
  context: initialContext,
  states: {
    closed: {
      on: {
        'form.open': {
          target: 'editing',
          actions: { type: 'open', params: ({ event }) => ({ job: event.job }) },
        },
      },
    },
    editing: {
      initial: 'clean',
      on: {
        'field.change': {
          actions: { type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) },
        },
        'form.cancel': { target: 'closed', actions: 'reset' },
        'form.dismiss': [
          { guard: 'isChanged', target: 'confirmingDiscard' },
          { target: 'closed', actions: 'reset' },
        ],
        'form.submit': [
          { guard: 'isValid', target: 'saving' },
          { target: '.showingError', reenter: true, actions: 'showFirstError' },
        ],
      },
      states: {
        clean: {},
        showingError: {
          entry: { type: 'focusField', params: ({ context }) => ({ field: context.error!.field }) },
          after: { errorDisplay: { target: 'clean', actions: 'clearError' } },
        },
      },
    },
    /** 'Discard what you typed?' over the form, after a backdrop click or Escape with changes. */
    confirmingDiscard: {
      on: {
        'discard.confirm': { target: 'closed', actions: 'reset' },
        'discard.cancel': 'editing',
        'form.dismiss': 'editing',
        'form.cancel': { target: 'closed', actions: 'reset' },
      },
    },
    saving: {
      entry: 'clearError',
      invoke: {
        id: 'saveJob',
        src: 'saveJob',
        input: ({ context }) => ({ mode: context.mode, jobId: context.jobId, values: context.values }),
        onDone: {
          target: 'closed',
          actions: [
            {
              type: 'jobSaved',
              params: ({ context, event }) => ({ mode: context.mode, row: event.output.row }),
            },
            {
              type: 'notifySaved',
              params: ({ context, event }) => ({ mode: context.mode, message: event.output.message }),
            },
            'reset',
          ],
        },
        onError: {
          target: 'editing',
          actions: { type: 'notifySaveFailed', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
  },
});
