import { visitSource } from '../../api/visit';
import type { i18n as I18n } from 'i18next';
import type { showToast as ShowToast } from '../../components/toasts';
import { contactFormMachine, type SendInput } from '../../machines/contact-form.machine';
import { queueingActor } from '../../offline/queueing-actor';

/** Toasts load with their first message, not with the page. */
const showToast = (...args: Parameters<typeof ShowToast>) =>
  void import('../../components/toasts').then((m) => m.showToast(...args));

/** The toast of a refused or failed send, by the answer's status (0: no answer at all). */
const FAILURE_KEYS: Record<number, string> = {
  0: 'form.offline',
  429: 'form.rateLimited',
  400: 'form.invalid',
};

/**
 * The contact form with its live effects, so the form only runs it: the message goes to the API
 * (loaded on the first send, with the schema library it checks answers with), or waits in the send
 * queue on this device without a connection, with the same Idempotency-Key; the toasts are
 * written in the language of the moment they appear, and a refused field gets the focus.
 */
export const contactFormLive = (i18n: I18n) =>
  contactFormMachine.provide({
    actors: {
      sendMessage: queueingActor(async (input: SendInput) => {
        const [{ sendContactMessage, contactMessagesUrl }, { jsonSubmission }] = await Promise.all([
          import('../../api/contact'),
          import('../../offline/submit'),
        ]);
        // the visit's source says which page, referrer or campaign brought the writer (Insights)
        const message = { ...input.message, ...visitSource() };
        return {
          kind: 'contact',
          label: input.message.name ?? '',
          url: contactMessagesUrl(),
          body: jsonSubmission(message),
          idempotencyKey: input.idempotencyKey,
          send: (key: string) => sendContactMessage(message, key),
        };
      }),
    },
    actions: {
      focusField: (_, { field }) => document.getElementById(`contact-${field}`)?.focus(),
      notifySuccess: () => showToast('success', { message: i18n.t('form.sent', { ns: 'contact' }) }),
      notifyQueued: () =>
        void i18n
          .loadNamespaces('offline')
          .then(() => showToast('info', { message: i18n.t('outbox.queuedContact', { ns: 'offline' }) })),
      notifyFailure: (_, { error }) => {
        // an ApiError (api/client.ts) carries the answer's status; anything else is a network failure
        const status = (error as { status?: unknown } | null)?.status;
        const key = FAILURE_KEYS[typeof status === 'number' ? status : 0] ?? 'form.failed';
        showToast('error', { message: i18n.t(key, { ns: 'contact' }) });
      },
    },
  });
