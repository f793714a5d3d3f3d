import { assign, fromPromise, setup } from 'xstate';
import { newIdempotencyKey } from '../../contract/idempotency-key';
import {
  CONTACT_CHECKED_FIELDS,
  CONTACT_ERROR_CODES,
  contactFormErrors,
  type ContactCheckedField,
  type ContactErrors,
} from '../../contract/contact-rules';
import { codesFor, emailError } from '../../contract/form-rules';
import type { ContactMessageAnswer, ContactMessageInput } from '../../contract/contact';
import { isQueued, type QueuedSubmission } from '../offline/queued';

/**
 * The 'Get in Touch' form: idle -> sending -> idle
 * with the form cleared. Email is checked while typing and on blur; on submit the first invalid
 * field is focused and submit stops; shown errors vanish by themselves after 0.5 s. Once the
 * while-typing email error has vanished, further keystrokes do not show it again until the field
 * loses focus (it would flash on every key). Unlike the
 * spec's simulation, `sendMessage` really posts the message (with one Idempotency-Key per
 * submission, kept for a retry of the same text). On failure the form keeps what was typed.
 */

export type ContactField = ContactCheckedField | 'website';
export type ContactFields = Record<ContactField, string>;

export const EMPTY_FIELDS: ContactFields = { name: '', email: '', company: '', message: '', website: '' };

export const firstInvalid = (errors: ContactErrors): ContactCheckedField | undefined =>
  CONTACT_CHECKED_FIELDS.find((field) => errors[field] !== undefined);

/** The codes of a refusal, for the fields the form shows (form-rules.ts). */
const refusedCodes = (event: unknown): ContactErrors =>
  codesFor(
    (event as { error?: SendFailure }).error?.codes,
    CONTACT_CHECKED_FIELDS,
    CONTACT_ERROR_CODES,
    'emailInvalid',
  );

/** What `sendMessage` answers: the server's answer, or that the message was kept offline. */
export type SendOutput = ContactMessageAnswer | QueuedSubmission;

export interface SendInput {
  message: ContactMessageInput;
  idempotencyKey: string;
}

/** What a failed send tells the machine: field errors to show, or nothing (a toast says why). */
export interface SendFailure {
  status?: number;
  /** The refused fields' codes (form-rules.ts). */
  codes?: Record<string, string>;
  message?: string;
}

export type ContactFormEvent =
  | { type: 'field.change'; name: ContactField; value: string }
  | { type: 'field.blur'; name: ContactField }
  | { type: 'form.submit' };

export interface ContactFormContext {
  fields: ContactFields;
  errors: ContactErrors;
  /**
   * The while-typing email error was shown since the field last lost focus: typing does not
   * bring it back after it vanished (no flash on every keystroke); blur and submit still do.
   */
  emailHintShown: boolean;
  /** One key per submission: made when a send starts, kept for a retry of the same text. */
  idempotencyKey: string | null;
  lang: string;
}

export const contactFormMachine = setup({
  types: {
    context: {} as ContactFormContext,
    events: {} as ContactFormEvent,
    input: {} as { lang?: string } | undefined,
  },
  delays: { errorDisplay: 500 },
  actors: {
    sendMessage: fromPromise<SendOutput, SendInput>(async () => {
      throw new Error('sendMessage is provided by the screen');
    }),
  },
  actions: {
    /** Moves keyboard focus to a field (the screen owns the inputs). */
    focusField: (_, _params: { field: ContactCheckedField }) => {},
    notifySuccess: (_, _params: { answer: ContactMessageAnswer }) => {},
    /** Kept on the device without a connection: it is sent when back online. */
    notifyQueued: () => {},
    notifyFailure: (_, _params: { error: unknown }) => {},
    setField: assign(({ context, event }) => {
      if (event.type !== 'field.change') return {};
      const fields = { ...context.fields, [event.name]: event.value };
      // A changed text is a new submission: a retry with the old key would get the old answer.
      return { fields, idempotencyKey: null };
    }),
    checkEmailWhileTyping: assign(({ context, event }) => {
      if (event.type !== 'field.change' || event.name !== 'email') return {};
      const error = event.value.trim() === '' ? undefined : emailError(event.value);
      const { email: shown, ...others } = context.errors;
      // shown once while typing: it may change or go while still on screen, but not come back
      if (error && (!context.emailHintShown || shown))
        return { errors: { ...others, email: error }, emailHintShown: true };
      return { errors: others };
    }),
    checkEmailOnBlur: assign(({ context }) => {
      const error = emailError(context.fields.email);
      const { email: _drop, ...others } = context.errors;
      return { errors: error ? { ...others, email: error } : others, emailHintShown: false };
    }),
    showAllErrors: assign(({ context }) => ({ errors: contactFormErrors(context.fields) })),
    clearErrors: assign({ errors: {} }),
    reset: assign({ fields: EMPTY_FIELDS, errors: {}, idempotencyKey: null, emailHintShown: false }),
    assignKey: assign({
      idempotencyKey: ({ context }) => context.idempotencyKey ?? newIdempotencyKey(),
    }),
    showServerErrors: assign(({ event }) => ({ errors: refusedCodes(event) })),
  },
  guards: {
    wasQueued: (_, output: SendOutput) => isQueued(output),
    formIsValid: ({ context }) => firstInvalid(contactFormErrors(context.fields)) === undefined,
    hasErrors: ({ context }) => firstInvalid(context.errors) !== undefined,
    isEmailChange: ({ event }) => event.type === 'field.change' && event.name === 'email',
    isEmailBlur: ({ event }) => event.type === 'field.blur' && event.name === 'email',
    refusedFields: ({ event }) => firstInvalid(refusedCodes(event)) !== undefined,
  },
}).createMachine({
  id: 'contactForm',
  context: ({ input }) => ({
    fields: EMPTY_FIELDS,
    errors: {},
    emailHintShown: false,
    idempotencyKey: null,
    lang: input?.lang ?? 'en',
  }),
  initial: 'idle',
  states: {
    idle: {
      initial: 'clean',
      on: {
        'field.change': [
          { guard: 'isEmailChange', target: '.checking', actions: ['setField', 'checkEmailWhileTyping'] },
          { actions: 'setField' },
        ],
        'field.blur': { guard: 'isEmailBlur', target: '.checking', actions: 'checkEmailOnBlur' },
        'form.submit': [
          { guard: 'formIsValid', target: 'sending' },
          {
            target: '.showingErrors',
            reenter: true,
            actions: [
              'showAllErrors',
              {
                type: 'focusField',
                params: ({ context }) => ({
                  field: firstInvalid(contactFormErrors(context.fields)) ?? 'name',
                }),
              },
            ],
          },
        ],
      },
      states: {
        clean: {},
        /** Decides whether the email check left an error to show. */
        checking: {
          always: [{ guard: 'hasErrors', target: 'showingErrors', reenter: true }, { target: 'clean' }],
        },
        /** Errors are visible; they vanish by themselves after 0.5 s. */
        showingErrors: {
          after: { errorDisplay: { target: 'clean', actions: 'clearErrors' } },
        },
      },
    },
    sending: {
      entry: ['clearErrors', 'assignKey'],
      invoke: {
        id: 'sendMessage',
        src: 'sendMessage',
        input: ({ context }) => ({
          idempotencyKey: context.idempotencyKey ?? '',
          message: {
            name: context.fields.name.trim(),
            email: context.fields.email.trim(),
            company: context.fields.company.trim(),
            message: context.fields.message.trim(),
            website: context.fields.website,
            lang: context.lang as ContactMessageInput['lang'],
          },
        }),
        onDone: [
          // Kept offline: the form is cleared as after a send; 'Waiting to send' lists it.
          {
            guard: { type: 'wasQueued', params: ({ event }) => event.output },
            target: 'idle',
            actions: ['notifyQueued', 'reset'],
          },
          {
            target: 'idle',
            actions: [
              {
                type: 'notifySuccess',
                params: ({ event }) => ({ answer: event.output as ContactMessageAnswer }),
              },
              'reset',
            ],
          },
        ],
        onError: [
          {
            guard: 'refusedFields',
            target: 'idle.showingErrors',
            actions: [
              'showServerErrors',
              { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) },
              {
                type: 'focusField',
                params: ({ event }) => ({
                  field: firstInvalid(refusedCodes(event)) ?? 'name',
                }),
              },
            ],
          },
          {
            target: 'idle',
            actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
  },
});
