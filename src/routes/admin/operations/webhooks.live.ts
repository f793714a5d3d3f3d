import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import type { WebhookRow } from '../../../../contract/webhooks';
import {
  deleteWebhook,
  loadDeliveries,
  loadWebhooks,
  resendDelivery,
  saveWebhook,
  sendTestEvent,
} from '../../../api/webhooks';
import { showToast } from '../../../components/toasts';
import { savingActor, type DraftRef } from '../../../machines/record-editor.machine';
import {
  webhookEditorMachine,
  type SaveWebhookInput,
  type WebhookEditorFields,
} from '../../../machines/webhook-editor.machine';
import { webhooksList, webhooksMachine } from '../../../machines/webhooks.machine';
import { draftKey, readDraft, removeDraft, writeDraft } from '../../../offline/drafts';
import { connectionEvents } from '../../../offline/online-status';
import { toastFailure, toastTheirs } from '../shared/admin-toasts';

/**
 * The Webhooks screen with its live effects: the endpoints (a list that fills again when the
 * connection is back), an endpoint's deliveries, "Send a test event", "Send again", Delete, and
 * the toasts in the language of the moment they appear.
 */
export const webhooksLive = (i18n: I18n) => {
  const say = (key: string) => i18n.t(key, { ns: 'admin' });
  return webhooksMachine.provide({
    actors: {
      list: webhooksList.provide({
        actors: {
          connectionEvents,
          loadPage: fromPromise(({ signal }) => loadWebhooks({ signal })),
        },
      }),
      loadDeliveries: fromPromise(({ input, signal }) => loadDeliveries(input.endpointId, { signal })),
      sendTest: fromPromise(({ input }) => sendTestEvent(input.endpointId)),
      resend: fromPromise(({ input }) => resendDelivery(input.endpointId, input.deliveryId)),
      deleteEndpoint: fromPromise(({ input }) => deleteWebhook(input.endpointId)),
    },
    actions: {
      notifyDone: (_, { message }) => showToast('success', { title: say('toast.success'), message }),
      notifyFailed: (_, { error }) =>
        toastFailure(error, { title: say('toast.error'), message: say('webhooks.failed'), offline: i18n }),
    },
  });
};

/**
 * The endpoint dialog with its live effects: the draft kept on this device per user and endpoint,
 * the save (a change based on the version it opened), focus on the first invalid field
 * (`webhook-<field>`), and the toasts. `onSaved` tells the list.
 */
export const webhookEditorLive = (
  i18n: I18n,
  userId: number,
  onSaved: (row: WebhookRow, created: boolean) => void,
) => {
  const draftOf = ({ id }: DraftRef) => draftKey(userId, 'webhook', id);
  return webhookEditorMachine.provide({
    actors: {
      readDraft: fromPromise(({ input }) => readDraft<WebhookEditorFields>(draftOf(input))),
      writeDraft: fromPromise(({ input }) => writeDraft(draftOf(input), input.values)),
      save: savingActor<WebhookRow, WebhookEditorFields, SaveWebhookInput>(({ body, id, version }) =>
        saveWebhook(body, id, version),
      ),
    },
    actions: {
      forgetDraft: (_, ref) => void removeDraft(draftOf(ref)),
      focusField: (_, { field }) =>
        requestAnimationFrame(() =>
          (document.getElementById(`webhook-${field}`) as HTMLElement | null)?.focus(),
        ),
      notifySaved: (_, { row, created }) => {
        if (row) onSaved(row, created);
        showToast('success', {
          title: i18n.t('admin:toast.success'),
          message: i18n.t(created ? 'admin:webhooks.added' : 'admin:webhooks.saved'),
        });
      },
      notifyMerged: (_, { changedBy }) => toastTheirs(i18n, changedBy, 'merged'),
      notifyQueued: () => {},
      notifyFailed: (_, { error }) =>
        toastFailure(error, {
          title: i18n.t('admin:toast.error'),
          message: i18n.t('admin:webhooks.saveFailed'),
          offline: i18n,
        }),
    },
  });
};
