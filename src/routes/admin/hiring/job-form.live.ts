import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import type { JobOpeningRow } from '../../../../contract/jobs';
import { JOB_MESSAGES, type JobFormValues } from '../../../../contract/jobs-admin';
import { CSRF_HEADERS } from '../../../api/client';
import { ifMatch } from '../../../../contract/versions';
import { manageJobOpening, manageJobOpeningsUrl } from '../../../api/jobs-admin';
import { asActorOutput, jsonSubmission, sendOrQueue } from '../../../offline/submit';
import { showToast } from '../../../components/toasts';
import { jobFormMachine, type SaveJobInput } from '../../../machines/job-form.machine';
import { savingActor, type DraftRef } from '../../../machines/record-editor.machine';
import { draftKey, readDraft, removeDraft, writeDraft } from '../../../offline/drafts';
import { toastFailure, toastTheirs } from '../shared/admin-toasts';
import { queuedSaveEffects } from '../shared/queued-changes.live';

/**
 * The job form with its live effects: the draft kept on this device per user and opening, the
 * save (without a connection kept in the send queue for this user, with the version and the form
 * it came from), focus on the first invalid field (inputs `job-<field>`, editors
 * `job-<field>-editor`), and the toasts. `onSaved` tells the list.
 */
export const jobFormLive = (
  i18n: I18n,
  userId: number,
  onSaved: (row: JobOpeningRow, created: boolean) => void,
) => {
  const draftOf = ({ id }: DraftRef) => draftKey(userId, 'job', id);
  return jobFormMachine.provide({
    actors: {
      readDraft: fromPromise(({ input }) => readDraft<JobFormValues>(draftOf(input))),
      writeDraft: fromPromise(({ input }) => writeDraft(draftOf(input), input.values)),
      save: savingActor<JobOpeningRow, JobFormValues, SaveJobInput>(
        async ({ body, version }, _progress, _signal, form) => {
          // without a connection the save is kept on this device, sent later under this person's session
          const outcome = await sendOrQueue({
            kind: 'job-opening',
            label: form.fields.job_title.trim(),
            url: manageJobOpeningsUrl(),
            body: jsonSubmission(body),
            headers: version === undefined ? { ...CSRF_HEADERS } : { ...CSRF_HEADERS, ...ifMatch(version) },
            owner: userId,
            edit: { recordId: form.recordId, version: form.version, base: form.opened, values: form.fields },
            send: (key) => manageJobOpening(body, version, key),
          });
          return asActorOutput(outcome);
        },
      ),
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
      notifySaved: (_, { row, created, message }) => {
        if (row) onSaved(row, created);
        showToast('success', {
          title: i18n.t('admin:toast.success'),
          message: i18n.t(
            !created
              ? 'admin:jobToast.updated'
              : // a new opening is a draft until published (docs/decisions/032-closing-an-opening.md)
                message === JOB_MESSAGES.createdDraft
                ? 'admin:jobToast.createdDraft'
                : 'admin:jobToast.created',
          ),
          ...(!created && { duration: 500 }),
        });
      },
      notifyMerged: (_, { changedBy }) => toastTheirs(i18n, changedBy, 'merged'),
      ...queuedSaveEffects(i18n),
      notifyFailed: (_, { error }) =>
        // offline: the form keeps what was typed and says saving waits for the connection
        toastFailure(error, {
          title: i18n.t('admin:toast.error'),
          message: i18n.t('admin:jobToast.saveFailed'),
          offline: i18n,
        }),
    },
  });
};
