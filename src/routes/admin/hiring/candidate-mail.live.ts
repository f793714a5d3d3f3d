import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import { loadMailTemplates, saveMailTemplate, sendCandidateMail } from '../../../api/admin-applications';
import type { Timeline } from '../../../../contract/application-timeline';
import { showToast } from '../../../components/toasts';
import { candidateMailMachine } from '../../../machines/candidate-mail.machine';
import { toastFailure } from '../shared/admin-toasts';

/**
 * An email to a candidate with its live effects: the templates of a language, the mail sent
 * (the timeline it answers goes to `sent`), a template saved, and the toasts.
 */
export const candidateMailLive = (i18n: I18n, sent: (timeline: Timeline) => void) => {
  const say = (key: string, options?: Record<string, unknown>) =>
    i18n.t(key, { ns: 'admin-inbox', ...options });
  return candidateMailMachine.provide({
    actors: {
      loadTemplates: fromPromise(({ input, signal }) => loadMailTemplates(input.lang, { signal })),
      sendMail: fromPromise(({ input }) =>
        sendCandidateMail(input.applicationId, {
          subject: input.subject,
          body: input.body,
          lang: input.lang as never,
          template: input.template,
        }),
      ),
      saveTemplate: fromPromise(({ input }) => saveMailTemplate(input, input.version)),
    },
    actions: {
      notifySent: (_, { timeline }) => {
        sent(timeline);
        showToast('success', { message: say('mail.sent') });
      },
      notifyTemplateSaved: () => showToast('success', { message: say('mail.templateSaved') }),
      notifyTemplateOvertaken: (_, { changedBy }) =>
        showToast('info', {
          title: i18n.t('common:conflict.overtakenTitle'),
          message: say('mail.templateOvertaken', { name: changedBy ?? i18n.t('common:conflict.someone') }),
        }),
      notifyFailed: (_, { error }) => toastFailure(error, { message: say('mail.failed') }),
    },
  });
};
