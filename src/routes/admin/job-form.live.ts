import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import type { JobOpeningRow } from '../../../contract/jobs';
import type { JobFormValues } from '../../../contract/jobs-admin';
import { CSRF_HEADERS } from '../../api/client';
import { JOB_MESSAGES, type ManageJobOpeningBody } from '../../../contract/jobs-admin';
import { ifMatch } from '../../../contract/versions';
import { manageJobOpening, manageJobOpeningsUrl } from '../../api/jobs-admin';
import { asActorOutput, jsonSubmission, sendOrQueue } from '../../offline/submit';
import { showToast } from '../../components/toasts';
import { jobFormMachine, type DraftRef, type JobFormMode } from '../../machines/job-form.machine';
import { draftKey, readDraft, removeDraft, writeDraft } from '../../offline/drafts';
import { toastFailure, toastTheirs } from './admin-toasts';
import { queuedSaveEffects } from './queued-changes.live';

/**
 * The job form with its live effects: the draft kept on this device per user and opening, the
 * save (mode 1 create, 2 update; without a connection kept in the send queue for this user, with
 * the version and the form it came from), focus on the first invalid field (inputs `job-<field>`, editors
 * `job-<field>-editor`), and the toasts. `onSaved` tells the list.
 */
export const jobFormLive = (
  i18n: I18n,
  userId: number,
  onSaved: (mode: JobFormMode, row: JobOpeningRow) => void,
) => {
  const draftOf = ({ mode, jobId }: DraftRef) => draftKey(userId, 'job', mode === 'edit' ? jobId : 0);
  return jobFormMachine.provide({
    actors: {
      readDraft: fromPromise(({ input }) => readDraft<JobFormValues>(draftOf(input))),
      writeDraft: fromPromise(({ input }) => writeDraft(draftOf(input), input.values)),
      saveJob: fromPromise(async ({ input }) => {
        // an update sends only what the person changed, based on the version the form opened
        const body: ManageJobOpeningBody =
          input.mode === 'create'
            ? { mode: 1, job_id: 0, ...input.values, job_type_id: Number(input.values.job_type_id) }
            : {
                mode: 2,
                job_id: input.jobId,
                ...Object.fromEntries(input.fields.map((f) => [f, input.values[f]])),
                ...(input.fields.includes('job_type_id') && {
                  job_type_id: Number(input.values.job_type_id),
                }),
              };
        const version = input.mode === 'edit' ? (input.version ?? undefined) : undefined;
        // without a connection the save is kept on this device, sent later under this person's session
        const outcome = await sendOrQueue({
          kind: 'job-opening',
          label: input.values.job_title.trim(),
          url: manageJobOpeningsUrl(),
          body: jsonSubmission(body),
          headers: version === undefined ? { ...CSRF_HEADERS } : { ...CSRF_HEADERS, ...ifMatch(version) },
          owner: userId,
          edit: { recordId: input.jobId, version: input.version, base: input.opened, values: input.values },
          send: (key) => manageJobOpening(body, version, key),
        });
        return asActorOutput(outcome);
      }),
    },
    actions: {
      forgetDraft: (_, ref) => void removeDraft(draftOf(ref)),
      focusField: (_, { field }) => {
        // after React has shown the error, so the field's description is current
        requestAnimationFrame(() =>
          (
            document.getElementById(`job-${field}`) ?? document.getElementById(`job-${field}-editor`)
          )?.focus(),
        );
      },
      jobSaved: (_, { mode, row }) => onSaved(mode, row),
      notifySaved: (_, { mode, message }) =>
        showToast('success', {
          title: i18n.t('admin:toast.success'),
          message: i18n.t(
            mode === 'edit'
              ? 'admin:jobToast.updated'
              : // a new opening is a draft until published (docs/decisions/032-closing-an-opening.md)
                message === JOB_MESSAGES.createdDraft
                ? 'admin:jobToast.createdDraft'
                : 'admin:jobToast.created',
          ),
          ...(mode === 'edit' && { duration: 500 }),
        }),
      notifyMerged: (_, { changedBy }) => toastTheirs(i18n, changedBy, 'merged'),
      ...queuedSaveEffects(i18n),
      notifySaveFailed: (_, { error }) =>
        // offline: the form keeps what was typed and says saving waits for the connection
        toastFailure(error, {
          title: i18n.t('admin:toast.error'),
          message: i18n.t('admin:jobToast.saveFailed'),
          offline: i18n,
        }),
    },
  });
};
