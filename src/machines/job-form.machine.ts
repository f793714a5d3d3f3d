import { assign, fromPromise, setup } from 'xstate';
import type { JobOpeningRow } from '../../contract/jobs';
import { htmlToText } from '../../contract/rich-text';
import { isQueued, type QueuedSubmission } from '../offline/queued';
import {
  changedOf,
  conflictIn,
  meetTheirs as meetTheirsOf,
  type EditConflict,
  type ReadField,
} from './edit-conflict';
import {
  EMPTY_JOB_FORM,
  JOB_FORM_FIELDS,
  firstJobFormError,
  isRichTextField,
  jobFieldFilled,
  type JobErrorCode,
  type JobFormField,
  type JobFormValues,
} from '../../contract/jobs-admin';

/**
 * The admin job form: the 'Add Job Opening' / 'Edit Job Opening'
 * modal. Fields unlock in order (a field opens once every earlier one has a value: the states
 * of the `editing.unlock` region, one per field, so the inspector shows the order); submit
 * validates in field order, shows only the first error and focuses that field; the error stays
 * until that field changes (the spec's 500 ms display hid it before it could be read:
 * docs/decisions/030-opening-text.md); saving shows 'Updating...'; a saved job closes and resets the form and is
 * handed to the list; a failed save shows an error toast and keeps what was typed. What is typed
 * is kept on the device (`autosave`: written 2 s after the first unsaved change, `writeDraft`);
 * opening the form finds a draft that differs from it and offers it (`restore`: 'Restore unsaved
 * changes from {time}?'); saving, Cancel and Discard remove it (`forgetDraft`). A backdrop
 * click or Escape (`form.dismiss`) closes a form whose values are still those it opened with, and
 * asks 'Discard what you typed?' (`confirmingDiscard`) when they changed; Cancel closes at once.
 *
 *
 * Edits are based on a version (docs/decisions/022-versions-and-conflicts.md): a save sends only
 * the fields the person changed, with the version the form opened. When someone else saved the
 * opening meanwhile (`VersionConflict` with their opening), fields only they changed are taken
 * and the save goes again at once (`notifyMerged`); when both changed the same field, `conflict`
 * shows theirs beside yours and nothing typed is lost until the person chooses: keep mine (save
 * again over theirs), take theirs (back to editing with their text in those fields), or keep both
 * (their text and then mine in each such field, to merge by hand).
 *
 * Without a connection (installed back office, a train), `saveJob` keeps the save in the device's
 * send queue (src/offline/send-queue.ts) with the version it is based on and answers that it was
 * kept (`isQueued`): the form closes with `notifyQueued` ('Waiting to send'). If someone else changed
 * the opening before it could be sent, the queue keeps it as a conflict, and `form.resume` takes it
 * up: the form opens on the values it was based on and those saved, and saves again, which
 * meets their change as above (merged, or the conflict view). Once saved, the entry is removed
 * (`forgetQueued`).
 *
 * Effects the screen provides: `saveJob` (POST manage-job-openings), `focusField`,
 * `notifySaved` (success toast), `notifySaveFailed` (error toast), `notifyMerged`, `jobSaved`
 * (tells the list).
 */
export type JobFormMode = 'create' | 'edit';

export interface JobFormContext {
  mode: JobFormMode;
  jobId: number;
  values: JobFormValues;
  /** The values the form opened with (empty, or the job being edited): what "unchanged" means. */
  opened: JobFormValues;
  /** A draft of this form found on the device that differs from the form, offered to restore. */
  draft: JobDraft | null;
  /** The device's draft was looked for (and any offer answered) since the form opened. */
  draftChecked: boolean;
  /** The first failing field and its code (the screen shows its text). */
  error: { field: JobFormField; code: JobErrorCode } | null;
  /** The version of the opening the form is based on (edit), null for a new one. */
  version: number | null;
  /** Someone else's save that crossed this one on the same fields, while `conflict`. */
  conflict: JobConflict | null;
  /** The send-queue entry this form took up (`form.resume`), removed once the change is saved. */
  queued: string | null;
}

/** A change kept in the send queue that met someone else's, taken up again by its author. */
export interface QueuedJobChange {
  /** The entry's id in the send queue. */
  id: string;
  jobId: number;
  /** The version the change was based on. */
  version: number | null;
  /** The form as it was opened, and as it was saved. */
  base: JobFormValues;
  values: JobFormValues;
}

/** Their opening beside what this form holds. */
export type JobConflict = EditConflict<JobFormValues>;

export type JobFormEvent =
  | { type: 'form.open'; job?: JobOpeningRow }
  /** Takes up a change made offline that met someone else's (see QueuedJobChange). */
  | { type: 'form.resume'; change: QueuedJobChange }
  | { type: 'field.change'; field: JobFormField; value: string }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'form.dismiss' }
  | { type: 'discard.confirm' }
  | { type: 'discard.cancel' }
  /** 'Restore unsaved changes from {time}?': yes, or no (the draft is dropped). */
  | { type: 'draft.restore' }
  | { type: 'draft.ignore' }
  /** After a conflict: save mine over theirs, take theirs, or keep both texts to merge by hand. */
  | { type: 'conflict.keepMine' }
  | { type: 'conflict.takeTheirs' }
  | { type: 'conflict.keepBoth' };

/** A form kept on the device as it was typed (src/offline/drafts.ts). */
export interface JobDraft {
  values: JobFormValues;
  savedAt: string;
}
/** Which draft: the job's (edit) or the one new job being written (create). */
export interface DraftRef {
  mode: JobFormMode;
  jobId: number;
}

export interface SaveJobInput {
  mode: JobFormMode;
  jobId: number;
  values: JobFormValues;
  /** The version the change is based on (edit). */
  version: number | null;
  /** The fields the person changed (edit): the only ones sent. */
  fields: JobFormField[];
  /** The values the form opened with, kept with a save that waits for the connection. */
  opened: JobFormValues;
}
export interface SaveJobOutput {
  message: string;
  row: JobOpeningRow;
}

/**
 * The fields' order of unlocking, as the states of the `editing.unlock` region: the region rests
 * on the first field without a value (every field up to it is open), or on `complete`.
 */
export const UNLOCK_STATES = [...JOB_FORM_FIELDS, 'complete'] as const;
export type UnlockState = (typeof UNLOCK_STATES)[number];

/** Which fields are open while the unlock region rests on `at`. */
export function unlockedAt(at: UnlockState): Record<JobFormField, boolean> {
  const reached = UNLOCK_STATES.indexOf(at);
  return Object.fromEntries(JOB_FORM_FIELDS.map((field, i) => [field, i <= reached])) as Record<
    JobFormField,
    boolean
  >;
}

/** Where the unlock region of a snapshot rests (`complete` outside editing). */
export function unlockStateOf(snapshot: { value: unknown }): UnlockState {
  const value = snapshot.value as { editing?: { unlock?: UnlockState } };
  return value.editing?.unlock ?? 'complete';
}

/**
 * One state per field: it passes on to the next once its field has a value (eventless), so after
 * any change the region, entered again at the first field, comes to rest on the first empty one.
 */
const unlockStates = Object.fromEntries(
  JOB_FORM_FIELDS.map((field, i) => [
    field,
    { always: { guard: { type: 'hasValue' as const, params: { field } }, target: UNLOCK_STATES[i + 1] } },
  ]),
) as Record<
  JobFormField,
  { always: { guard: { type: 'hasValue'; params: { field: JobFormField } }; target: UnlockState } }
>;

/** How a person reads a field: text trimmed, rich text as text. */
const readJobField: ReadField<JobFormValues> = (field, value) =>
  isRichTextField(field) ? htmlToText(value) : value.trim();

/** The fields whose values differ as a person reads them (text trimmed, rich text as text). */
export const changedFields = (values: JobFormValues, opened: JobFormValues): JobFormField[] =>
  changedOf(JOB_FORM_FIELDS, readJobField, values, opened);

/** Whether `values` differ from `opened` as a person reads them. */
export const isChanged = (values: JobFormValues, opened: JobFormValues): boolean =>
  changedFields(values, opened).length > 0;

/** Someone else's save met (edit-conflict.ts): merged values, and the fields both changed. */
export const meetTheirs = (values: JobFormValues, opened: JobFormValues, theirs: JobFormValues) =>
  meetTheirsOf(JOB_FORM_FIELDS, readJobField, values, opened, theirs);

const conflictOf = (error: unknown) => conflictIn<JobOpeningRow>(error);

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

const initialContext: JobFormContext = {
  mode: 'create',
  jobId: 0,
  values: EMPTY_JOB_FORM,
  opened: EMPTY_JOB_FORM,
  draft: null,
  draftChecked: false,
  error: null,
  version: null,
  conflict: null,
  queued: null,
};

export const jobFormMachine = setup({
  types: {
    context: {} as JobFormContext,
    events: {} as JobFormEvent,
  },
  actors: {
    /** The saved opening, or (no connection) that the save was kept in the send queue. */
    saveJob: fromPromise<SaveJobOutput | QueuedSubmission, SaveJobInput>(async () => {
      throw new Error('saveJob is provided by the app');
    }),
    /** This form's draft on the device, or null. */
    readDraft: fromPromise<JobDraft | null, DraftRef>(async () => null),
    /** Keeps what the form holds on the device. */
    writeDraft: fromPromise<void, DraftRef & { values: JobFormValues }>(async () => {}),
  },
  actions: {
    open: assign((_, params: { job?: JobOpeningRow }) =>
      params.job
        ? {
            mode: 'edit' as const,
            jobId: params.job.job_id,
            values: valuesOf(params.job),
            opened: valuesOf(params.job),
            draft: null,
            draftChecked: false,
            error: null,
            version: params.job.version ?? null,
            conflict: null,
            queued: null,
          }
        : { ...initialContext },
    ),
    resume: assign((_, params: { change: QueuedJobChange }) => ({
      ...initialContext,
      mode: 'edit' as const,
      jobId: params.change.jobId,
      values: params.change.values,
      opened: params.change.base,
      version: params.change.version,
      queued: params.change.id,
    })),
    /** Their save is the new base: fields only they changed take their values (see meetTheirs). */
    meetTheirs: assign(({ context }, params: { error: unknown }) => {
      const met = conflictOf(params.error)!;
      const theirs = valuesOf(met.current);
      const { merged, both } = meetTheirs(context.values, context.opened, theirs);
      return {
        values: merged,
        opened: theirs,
        version: met.current.version ?? null,
        conflict: {
          theirs,
          version: met.current.version ?? 0,
          changedBy: met.changedBy,
          changedAt: met.changedAt,
          fields: both,
        },
      };
    }),
    takeTheirs: assign(({ context }) => ({
      values: Object.fromEntries(
        JOB_FORM_FIELDS.map((f) => [
          f,
          context.conflict?.fields.includes(f) ? context.conflict.theirs[f] : context.values[f],
        ]),
      ) as JobFormValues,
      conflict: null,
    })),
    keepBoth: assign(({ context }) => ({
      values: Object.fromEntries(
        JOB_FORM_FIELDS.map((f) => [
          f,
          context.conflict?.fields.includes(f) && isRichTextField(f)
            ? `${context.conflict.theirs[f]}${context.values[f]}`
            : context.values[f],
        ]),
      ) as JobFormValues,
      conflict: null,
    })),
    clearConflict: assign({ conflict: null }),
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
    /** Kept on the device, to be sent when the connection is back ('Waiting to send'). */
    notifyQueued: (_, _params: { mode: JobFormMode }) => {},
    /** Removes the send-queue entry this form took up (saved, or kept again as a new entry). */
    forgetQueued: (_, _params: { id: string | null }) => {},
    /** Saved together with someone else's change to other fields. */
    notifyMerged: (_, _params: { changedBy: string | null }) => {},
    jobSaved: (_, _params: { mode: JobFormMode; row: JobOpeningRow }) => {},
    /** Removes this form's draft from the device (saved or discarded); supplied by the screen. */
    forgetDraft: (_, _params: DraftRef) => {},
    offerDraft: assign({ draft: (_, params: { draft: JobDraft }) => params.draft }),
    restoreDraft: assign(({ context }) => ({
      values: context.draft?.values ?? context.values,
      draft: null,
      draftChecked: true,
    })),
    dropOffer: assign({ draft: null, draftChecked: true }),
    draftChecked: assign({ draftChecked: true }),
  },
  guards: {
    isValid: ({ context }) => firstJobFormError(context.values) === null,
    wasQueued: (_, params: { output: unknown }) => isQueued(params.output),
    /** Someone else saved meanwhile, on other fields only: save again on their version. */
    isMergeable: ({ context }, params: { error: unknown }) => {
      const met = conflictOf(params.error);
      return (
        met !== null && meetTheirs(context.values, context.opened, valuesOf(met.current)).both.length === 0
      );
    },
    isConflict: (_, params: { error: unknown }) => conflictOf(params.error) !== null,
    /** A rich-text field is among those both changed: 'Keep both' is offered. */
    canKeepBoth: ({ context }) => (context.conflict?.fields ?? []).some((f) => isRichTextField(f)),
    isChanged: ({ context }) => isChanged(context.values, context.opened),
    /** A draft that holds something other than what the form shows now. */
    isDifferentDraft: ({ context }, params: { draft: JobDraft | null }) =>
      params.draft != null && isChanged(params.draft.values, context.values),
    /** The field whose error is shown. */
    isErrorField: ({ context }, params: { field: JobFormField }) => context.error?.field === params.field,
    /** The field lets the next one open (the contract's `jobFieldFilled`). */
    hasValue: ({ context }, params: { field: JobFormField }) => jobFieldFilled(params.field, context.values),
  },
  delays: {
    /** What is typed is kept on the device at most this long after the first unsaved change. */
    draftDelay: 2000,
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
        'form.resume': {
          target: 'saving',
          actions: { type: 'resume', params: ({ event }) => ({ change: event.change }) },
        },
      },
    },
    /**
     * Four regions: `display` (the error of a refused submit, shown until its field changes), `unlock` (which
     * fields are open, in order: see unlockStates), `restore` (a draft found on the device) and
     * `autosave` (what is typed, kept on the device).
     */
    editing: {
      type: 'parallel',
      on: {
        'form.cancel': {
          target: 'closed',
          actions: [
            { type: 'forgetDraft', params: ({ context }) => ({ mode: context.mode, jobId: context.jobId }) },
            'reset',
          ],
        },
        'form.dismiss': [
          { guard: 'isChanged', target: 'confirmingDiscard' },
          {
            target: 'closed',
            actions: [
              {
                type: 'forgetDraft',
                params: ({ context }) => ({ mode: context.mode, jobId: context.jobId }),
              },
              'reset',
            ],
          },
        ],
        'form.submit': [
          { guard: 'isValid', target: 'saving' },
          { target: '.display.showingError', reenter: true, actions: 'showFirstError' },
        ],
      },
      states: {
        display: {
          initial: 'clean',
          states: {
            clean: {},
            showingError: {
              entry: { type: 'focusField', params: ({ context }) => ({ field: context.error!.field }) },
              on: {
                'field.change': {
                  guard: { type: 'isErrorField', params: ({ event }) => ({ field: event.field }) },
                  target: 'clean',
                  actions: 'clearError',
                },
              },
            },
          },
        },
        unlock: {
          initial: 'job_title',
          on: {
            // a change may open the next field or lock what follows an emptied one: start over
            'field.change': {
              target: '.job_title',
              actions: {
                type: 'setField',
                params: ({ event }) => ({ field: event.field, value: event.value }),
              },
            },
            'draft.restore': '.job_title',
          },
          states: { ...unlockStates, complete: {} },
        },
        /** A draft of this form left on the device (a reload, a crashed tab): offered to restore. */
        restore: {
          initial: 'deciding',
          states: {
            // looked for once per opening: coming back to the form (Keep editing, a failed save,
            // a conflict) is not opening it, and the draft autosave keeps is this very form
            deciding: {
              always: [
                { guard: ({ context }) => context.draftChecked, target: 'none' },
                { target: 'checking' },
              ],
            },
            checking: {
              invoke: {
                id: 'readDraft',
                src: 'readDraft',
                input: ({ context }) => ({ mode: context.mode, jobId: context.jobId }),
                onDone: [
                  {
                    guard: { type: 'isDifferentDraft', params: ({ event }) => ({ draft: event.output }) },
                    target: 'offering',
                    actions: { type: 'offerDraft', params: ({ event }) => ({ draft: event.output! }) },
                  },
                  { target: 'none', actions: 'draftChecked' },
                ],
                onError: { target: 'none', actions: 'draftChecked' },
              },
            },
            offering: {
              on: {
                'draft.restore': { target: 'none', actions: 'restoreDraft' },
                'draft.ignore': {
                  target: 'none',
                  actions: [
                    'dropOffer',
                    {
                      type: 'forgetDraft',
                      params: ({ context }) => ({ mode: context.mode, jobId: context.jobId }),
                    },
                  ],
                },
              },
            },
            none: {},
          },
        },
        /** What is typed is kept on the device a moment after it changes. */
        autosave: {
          initial: 'deciding',
          states: {
            // back to a changed form (Keep editing, a failed save): what was typed just before is
            // kept on the device as well
            deciding: { always: [{ guard: 'isChanged', target: 'changed' }, { target: 'kept' }] },
            kept: { on: { 'field.change': 'changed', 'draft.restore': 'changed' } },
            changed: { after: { draftDelay: 'keeping' } },
            keeping: {
              invoke: {
                id: 'writeDraft',
                src: 'writeDraft',
                input: ({ context }) => ({
                  mode: context.mode,
                  jobId: context.jobId,
                  values: context.values,
                }),
                onDone: 'kept',
                onError: 'kept',
              },
              on: { 'field.change': 'changed' },
            },
          },
        },
      },
    },
    /** 'Discard what you typed?' over the form, after a backdrop click or Escape with changes. */
    confirmingDiscard: {
      on: {
        'discard.confirm': {
          target: 'closed',
          actions: [
            { type: 'forgetDraft', params: ({ context }) => ({ mode: context.mode, jobId: context.jobId }) },
            'reset',
          ],
        },
        'discard.cancel': 'editing',
        'form.dismiss': 'editing',
        'form.cancel': {
          target: 'closed',
          actions: [
            { type: 'forgetDraft', params: ({ context }) => ({ mode: context.mode, jobId: context.jobId }) },
            'reset',
          ],
        },
      },
    },
    saving: {
      entry: 'clearError',
      invoke: {
        id: 'saveJob',
        src: 'saveJob',
        input: ({ context }) => ({
          mode: context.mode,
          jobId: context.jobId,
          values: context.values,
          version: context.version,
          fields: changedFields(context.values, context.opened),
          opened: context.opened,
        }),
        onDone: [
          {
            // no connection: the send queue holds it now (and its draft is no longer needed)
            guard: { type: 'wasQueued', params: ({ event }) => ({ output: event.output }) },
            target: 'closed',
            actions: [
              { type: 'notifyQueued', params: ({ context }) => ({ mode: context.mode }) },
              { type: 'forgetQueued', params: ({ context }) => ({ id: context.queued }) },
              {
                type: 'forgetDraft',
                params: ({ context }) => ({ mode: context.mode, jobId: context.jobId }),
              },
              'reset',
            ],
          },
          {
            target: 'closed',
            actions: [
              {
                type: 'jobSaved',
                params: ({ context, event }) => ({
                  mode: context.mode,
                  row: (event.output as SaveJobOutput).row,
                }),
              },
              {
                type: 'notifySaved',
                params: ({ context, event }) => ({
                  mode: context.mode,
                  message: (event.output as SaveJobOutput).message,
                }),
              },
              { type: 'forgetQueued', params: ({ context }) => ({ id: context.queued }) },
              {
                type: 'forgetDraft',
                params: ({ context }) => ({ mode: context.mode, jobId: context.jobId }),
              },
              'reset',
            ],
          },
        ],
        onError: [
          {
            guard: { type: 'isMergeable', params: ({ event }) => ({ error: event.error }) },
            target: 'saving',
            reenter: true,
            actions: [
              { type: 'meetTheirs', params: ({ event }) => ({ error: event.error }) },
              { type: 'notifyMerged', params: ({ context }) => ({ changedBy: context.conflict!.changedBy }) },
              'clearConflict',
            ],
          },
          {
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'conflict',
            actions: { type: 'meetTheirs', params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: 'editing',
            actions: { type: 'notifySaveFailed', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    /**
     * '<name> changed this at 10:42 while you were editing': theirs beside mine for the fields both
     * changed; the form keeps what was typed until the person chooses.
     */
    conflict: {
      on: {
        'conflict.keepMine': { target: 'saving', actions: 'clearConflict' },
        // the choice is made: the device's copy of what was typed before it is not offered again
        'conflict.takeTheirs': {
          target: 'editing',
          actions: [
            'takeTheirs',
            { type: 'forgetDraft', params: ({ context }) => ({ mode: context.mode, jobId: context.jobId }) },
          ],
        },
        'conflict.keepBoth': {
          guard: 'canKeepBoth',
          target: 'editing',
          actions: [
            'keepBoth',
            { type: 'forgetDraft', params: ({ context }) => ({ mode: context.mode, jobId: context.jobId }) },
          ],
        },
        'form.cancel': {
          target: 'closed',
          actions: [
            { type: 'forgetDraft', params: ({ context }) => ({ mode: context.mode, jobId: context.jobId }) },
            'reset',
          ],
        },
      },
    },
  },
});
