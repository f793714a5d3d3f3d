import { assign, fromCallback, fromPromise, setup, spawnChild } from 'xstate';
import { newIdempotencyKey } from '../../contract/idempotency-key';
import type { ApplicationInput } from '../../contract/applications';
import type { UploadProgress } from '../../contract/upload';
import {
  APPLICATION_ERROR_CODES,
  APPLICATION_FIELDS,
  applicationFieldError,
  applicationFormErrors,
  type ApplicationAnswer,
  type ApplicationErrorCode,
  type ApplicationErrors,
  DEFAULT_PHONE_COUNTRY,
  type ApplicationField,
  type PhoneCheck,
} from '../../contract/applications';
import { codesFor } from '../../contract/form-rules';
import { isQueued, type QueuedSubmission } from '../offline/queued';

/**
 * The Apply modal: closed, then editing on Apply (remembering the job id
 * and title), submitting while the CV uploads (with progress), then closed and reset on success or
 * Cancel. On failure the modal stays open with everything typed. Fields are checked on blur with
 * the spec's messages (as codes; the screen shows the translated text), and again on Submit.
 * A backdrop click or Escape (`form.dismiss`) closes an untouched form at once and asks first
 * ('Discard what you typed?', `confirmingDiscard`) when anything was typed; the same rule as the
 * job and blog dialogs. While the CV uploads, only Cancel closes.
 *
 * The phone number's country is chosen beside it. The first `form.open` starts `loadPhoneRules`
 * (libphonenumber-js and the visitor's country, loaded then so no page carries them at first load);
 * until it answers the number is judged by its shape, and after by its country's rules. Failing to
 * load changes nothing but that: the server checks the number in full anyway.
 *
 * Side effects are named and supplied by the screen: `submitApplication` (the upload),
 * `notifySuccess` / `notifyFailure` (toasts), `focusField` (focus the first invalid field).
 */

export interface JobRef {
  id: number;
  title: string;
}

export interface ApplyFields {
  full_name: string;
  email: string;
  contact_number: string;
  /** The number's country (ISO 3166 alpha-2); empty until the visitor's is known (else the page language's). */
  contact_country: string;
  address: string;
  resume: File | null;
  consent: boolean;
  /** The honeypot: hidden from people, filled by bots. */
  website: string;
}

export type FieldName = ApplicationField;
export type ErrorCode = ApplicationErrorCode;
export type FieldErrors = ApplicationErrors;

export const emptyFields = (): ApplyFields => ({
  full_name: '',
  email: '',
  contact_number: '',
  contact_country: '',
  address: '',
  resume: null,
  consent: false,
  website: '',
});

/** The codes of a refusal (form-rules.ts), for the fields the form shows and the job. */
export const serverErrors = (error: unknown): FieldErrors =>
  codesFor(
    (error as { codes?: Record<string, string> } | null)?.codes,
    [...APPLICATION_FIELDS, 'job_id'],
    APPLICATION_ERROR_CODES,
    'invalid',
  );

/** The request of one submission. */
export function toApplyInput(job: JobRef, fields: ApplyFields, idempotencyKey: string): ApplicationInput {
  return {
    job_id: job.id,
    full_name: fields.full_name.trim(),
    email: fields.email.trim(),
    contact_number: fields.contact_number.trim(),
    ...(fields.contact_country ? { contact_country: fields.contact_country } : {}),
    address: fields.address.trim(),
    resume: fields.resume!,
    consent: fields.consent,
    website: fields.website,
    idempotencyKey,
  };
}

/** What `loadPhoneRules` answers: the full check, the countries offered, and the visitor's country. */
export interface PhoneRules {
  check: PhoneCheck;
  countries: { code: string; callingCode: string }[];
  country: string;
}

export interface ApplyContext {
  job: JobRef | null;
  /** The phone rules once loaded (kept while the page lives). */
  phone: PhoneRules | null;
  /** Whether `loadPhoneRules` runs (a failed load is tried again at the next opening). */
  phoneLoading: boolean;
  fields: ApplyFields;
  errors: FieldErrors;
  /** Upload progress of the running submission; null before the first progress report. */
  progress: UploadProgress | null;
  idempotencyKey: string;
}

export type ApplyEvent =
  | { type: 'form.open'; job: JobRef }
  | { type: 'field.change'; name: keyof ApplyFields; value: string | boolean | File | null }
  | { type: 'field.blur'; name: FieldName }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  /** A click on the backdrop or Escape: closes an empty form, asks first when something was typed. */
  | { type: 'form.dismiss' }
  | { type: 'discard.confirm' }
  | { type: 'discard.cancel' }
  | { type: 'upload.progress'; loaded: number; total: number }
  /** `loadPhoneRules` answered, or failed. */
  | { type: 'phone.loaded'; rules: PhoneRules }
  | { type: 'phone.failed' };

/** Whether the person has put anything into the form (what a dismiss would throw away). */
export function hasInput(fields: ApplyFields): boolean {
  return (
    [fields.full_name, fields.email, fields.contact_number, fields.address].some((v) => v.trim() !== '') ||
    fields.resume !== null ||
    fields.consent
  );
}

/** What `submitApplication` answers: the server's answer, or that the application was kept offline. */
export type SubmitOutput = ApplicationAnswer | QueuedSubmission;

export interface SubmitInput {
  application: ApplicationInput;
  /** The opening's title, for the send queue's 'Application for: …' when kept offline. */
  jobTitle: string;
  onProgress: (progress: UploadProgress) => void;
}

/** `loadPhoneRules` from the app's loader: it reports back with 'phone.loaded' or 'phone.failed'. */
export const phoneRulesActor = (load: () => Promise<PhoneRules>) =>
  fromCallback<ApplyEvent>(({ sendBack }) => {
    load().then(
      (rules) => sendBack({ type: 'phone.loaded', rules }),
      () => sendBack({ type: 'phone.failed' }),
    );
  });

const initialContext = (): ApplyContext => ({
  job: null,
  phone: null,
  phoneLoading: false,
  fields: emptyFields(),
  errors: {},
  progress: null,
  idempotencyKey: '',
});

export const applyFormMachine = setup({
  types: {
    context: {} as ApplyContext,
    events: {} as ApplyEvent,
  },
  actors: {
    loadPhoneRules: phoneRulesActor(() => Promise.reject(new Error('loadPhoneRules is provided by the app'))),
    /** The server's answer, or { queued: true } when it was kept to be sent when back online. */
    submitApplication: fromPromise<SubmitOutput, SubmitInput>(async () => {
      throw new Error('submitApplication is provided by the app');
    }),
  },
  actions: {
    rememberJob: assign({
      job: ({ event }) => (event.type === 'form.open' ? event.job : null),
    }),
    newIdempotencyKey: assign({ idempotencyKey: () => newIdempotencyKey() }),
    updateField: assign(({ context, event }) => {
      if (event.type !== 'field.change') return {};
      const fields = { ...context.fields, [event.name]: event.value } as ApplyFields;
      // another country judges the number again
      const name = (event.name === 'contact_country' ? 'contact_number' : event.name) as FieldName;
      // A field with an error is checked again as it changes, so the message goes once it is fixed;
      // the file and the box have no typing, so they are checked at once.
      const recheck = name in context.errors || name === 'resume' || name === 'consent';
      if (!recheck || !(APPLICATION_FIELDS as readonly string[]).includes(name)) return { fields };
      const error = applicationFieldError(name, fields, { phone: context.phone?.check });
      const errors = { ...context.errors };
      if (error) errors[name] = error;
      else delete errors[name];
      return { fields, errors };
    }),
    validateField: assign({
      errors: ({ context, event }) => {
        if (event.type !== 'field.blur') return context.errors;
        const error = applicationFieldError(event.name, context.fields, { phone: context.phone?.check });
        const errors = { ...context.errors };
        if (error) errors[event.name] = error;
        else delete errors[event.name];
        return errors;
      },
    }),
    showAllErrors: assign({
      errors: ({ context }) => applicationFormErrors(context.fields, { phone: context.phone?.check }),
    }),
    startPhoneRules: spawnChild('loadPhoneRules'),
    markPhoneLoading: assign({ phoneLoading: true }),
    phoneRulesFailed: assign({ phoneLoading: false }),
    /** The rules arrived: the visitor's country unless one was chosen, and a shown error judged again. */
    usePhoneRules: assign(({ context, event }) => {
      if (event.type !== 'phone.loaded') return {};
      const phone = event.rules;
      // the visitor's country, unless a number was typed while the field showed India
      const country =
        context.fields.contact_country ||
        (context.fields.contact_number.trim() ? DEFAULT_PHONE_COUNTRY : phone.country);
      const fields = { ...context.fields, contact_country: country };
      const errors = { ...context.errors };
      if (errors.contact_number) {
        const error = applicationFieldError('contact_number', fields, { phone: phone.check });
        if (error) errors.contact_number = error;
        else delete errors.contact_number;
      }
      return { phone, phoneLoading: false, fields, errors };
    }),
    showServerErrors: assign({
      errors: ({ context }, params: { error: unknown }) => ({
        ...context.errors,
        ...serverErrors(params.error),
      }),
    }),
    clearProgress: assign({ progress: null }),
    setProgress: assign({
      progress: ({ context, event }) =>
        event.type === 'upload.progress' ? { loaded: event.loaded, total: event.total } : context.progress,
    }),
    /** An empty form; the phone rules stay, and the country starts at the visitor's again. */
    reset: assign(({ context }) => ({
      ...initialContext(),
      phone: context.phone,
      phoneLoading: context.phoneLoading,
      fields: { ...emptyFields(), contact_country: context.phone?.country ?? '' },
    })),
    /** Moves focus to the first field with an error (the screen knows the elements). */
    focusField: (_, _params: { name: FieldName }) => {},
    notifySuccess: (_, _params: { message: string | undefined }) => {},
    notifyFailure: (_, _params: { error: unknown }) => {},
    /** Kept on the device (offline): 'Waiting to send'. */
    notifyQueued: () => {},
  },
  guards: {
    wasQueued: (_, output: SubmitOutput) => isQueued(output),
    isValid: ({ context }) =>
      Object.keys(applicationFormErrors(context.fields, { phone: context.phone?.check })).length === 0,
    needsPhoneRules: ({ context }) => !context.phone && !context.phoneLoading,
    hasInput: ({ context }) => hasInput(context.fields),
  },
}).createMachine({
  id: 'applyForm',
  initial: 'closed',
  context: initialContext,
  on: {
    'phone.loaded': { actions: 'usePhoneRules' },
    'phone.failed': { actions: 'phoneRulesFailed' },
  },
  states: {
    closed: {
      on: {
        'form.open': [
          {
            guard: 'needsPhoneRules',
            target: 'editing',
            actions: ['reset', 'rememberJob', 'newIdempotencyKey', 'markPhoneLoading', 'startPhoneRules'],
          },
          { target: 'editing', actions: ['reset', 'rememberJob', 'newIdempotencyKey'] },
        ],
      },
    },
    editing: {
      on: {
        // Any change makes it a different submission: a new Idempotency-Key. An unchanged retry
        // after a failure keeps the key, so a request that did reach the server is stored once.
        'field.change': { actions: ['updateField', 'newIdempotencyKey'] },
        'field.blur': { actions: 'validateField' },
        'form.submit': [
          { guard: 'isValid', target: 'submitting' },
          {
            actions: [
              'showAllErrors',
              {
                type: 'focusField',
                params: ({ context }) => ({
                  name: APPLICATION_FIELDS.find((n) =>
                    applicationFieldError(n, context.fields, { phone: context.phone?.check }),
                  )!,
                }),
              },
            ],
          },
        ],
        'form.cancel': { target: 'closed', actions: 'reset' },
        'form.dismiss': [
          { guard: 'hasInput', target: 'confirmingDiscard' },
          { target: 'closed', actions: 'reset' },
        ],
      },
    },
    /** 'Discard what you typed?' over the form, after a backdrop click or Escape with input. */
    confirmingDiscard: {
      on: {
        'discard.confirm': { target: 'closed', actions: 'reset' },
        'discard.cancel': 'editing',
        'form.dismiss': 'editing',
        'form.cancel': { target: 'closed', actions: 'reset' },
      },
    },
    submitting: {
      entry: 'clearProgress',
      invoke: {
        id: 'submitApplication',
        src: 'submitApplication',
        input: ({ context, self }) => ({
          application: toApplyInput(context.job!, context.fields, context.idempotencyKey),
          jobTitle: context.job!.title,
          onProgress: ({ loaded, total }: UploadProgress) =>
            self.send({ type: 'upload.progress', loaded, total }),
        }),
        onDone: [
          {
            guard: { type: 'wasQueued', params: ({ event }) => event.output },
            target: 'closed',
            actions: ['notifyQueued', 'reset'],
          },
          {
            target: 'closed',
            actions: [
              {
                type: 'notifySuccess',
                params: ({ event }) => ({ message: (event.output as ApplicationAnswer).Message }),
              },
              'reset',
            ],
          },
        ],
        onError: {
          target: 'editing',
          actions: [
            { type: 'showServerErrors', params: ({ event }) => ({ error: event.error }) },
            { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
      on: {
        'upload.progress': { actions: 'setProgress' },
        // Cancel stops the upload (the invoked request is aborted when the state is left).
        'form.cancel': { target: 'closed', actions: 'reset' },
      },
    },
  },
});
