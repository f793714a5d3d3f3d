import { visitSource } from '../../api/visit';
import type { i18n as I18n } from 'i18next';
import { APPLICATION_MESSAGES, firstPhoneCountry } from '../../../contract/applications';
import { showToast } from '../../components/toasts';
import {
  applyFormMachine,
  phoneRulesActor,
  serverErrors,
  type PhoneRules,
  type SubmitInput,
} from '../../machines/apply-form.machine';
import { queueingActor } from '../../offline/queueing-actor';
import { fieldId } from './apply-modal';

/** Toasts of the careers page last 4 s, success and error alike. */
const TOAST_MS = 4000;

/**
 * libphonenumber-js and the visitor's country (the geo lookup the pricing page uses; when it is
 * unknown or fails, the country of the page's language `lang`), loaded when the form first opens:
 * no page carries them at first load.
 */
async function loadPhoneRules(lang: string): Promise<PhoneRules> {
  const [{ phoneCheck, phoneCountries, isPhoneCountry }, country] = await Promise.all([
    import('../../../contract/phone-check'),
    import('../../api/pricing')
      .then(
        ({ getGeo }) => getGeo().then((geo) => geo.country_code.trim().toUpperCase()),
        () => '',
      )
      .catch(() => ''),
  ]);
  return {
    check: phoneCheck,
    countries: phoneCountries(),
    country: firstPhoneCountry(isPhoneCountry(country) ? country : null, lang),
  };
}

/**
 * The apply form with its live effects, so the careers page only runs it: the application goes
 * through the one upload transport (api/applications.ts), or waits in the send queue on this
 * device without a connection, with the same Idempotency-Key; the toasts are written in the
 * language of the moment they appear, and a refused field gets the focus.
 */
export const applyFormLive = (i18n: I18n) =>
  applyFormMachine.provide({
    actors: {
      loadPhoneRules: phoneRulesActor(() => loadPhoneRules(i18n.language)),
      submitApplication: queueingActor(async (input: SubmitInput, signal) => {
        const [{ applicationFields, applicationsUrl, submitApplication }, { formSubmission }] =
          await Promise.all([import('../../api/applications'), import('../../offline/submit')]);
        // the acknowledgment mail is written in the language of the page; the visit's source
        // says which page, referrer or campaign brought the candidate (Insights)
        const application = { ...input.application, lang: i18n.language, source: visitSource() };
        return {
          kind: 'application',
          label: input.jobTitle,
          url: applicationsUrl(),
          body: formSubmission(applicationFields(application), { resume: application.resume }),
          idempotencyKey: application.idempotencyKey,
          signal,
          send: () => submitApplication(application, { onProgress: input.onProgress, signal }),
        };
      }),
    },
    actions: {
      notifySuccess: (_, { message }) => {
        // the server's Message, translated when it is our server's standard text
        const text =
          !message || message === APPLICATION_MESSAGES.success ? i18n.t('careers:toast.success') : message;
        showToast('success', { message: text, duration: TOAST_MS });
      },
      // an opening closed meanwhile is not a failure to try again: the toast says which it is
      notifyFailure: (_, { error }) =>
        showToast('error', {
          message: i18n.t(
            serverErrors(error).job_id === 'jobGone' ? 'careers:errors.jobGone' : 'careers:toast.failure',
          ),
          duration: TOAST_MS,
        }),
      notifyQueued: () =>
        showToast('info', { message: i18n.t('offline:outbox.queuedApplication'), duration: TOAST_MS }),
      focusField: (_, { name }) => document.getElementById(fieldId(name))?.focus(),
    },
  });
