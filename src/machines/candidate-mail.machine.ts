import { assign, fromPromise, setup } from 'xstate';
import type { Timeline } from '../../contract/application-timeline';
import {
  candidateMailErrors,
  type CandidateMailCode,
  type CandidateMailTemplate,
  type CandidateTemplate,
} from '../../contract/candidate-mail';
import { conflictIn, isGoneError } from './record-editor.machine';

/**
 * An email to a candidate, written in the application's detail (docs/decisions/026-application-timeline.md).
 *
 * - `closed`: `mail.open` (a template to start from; `offer` when the application was just
 *   rejected here, so the screen asks "send the rejection email?") -> `loading`.
 * - `loading` (the `loadTemplates` actor, for the chosen language) -> `composing`, the subject and
 *   body taken from the chosen template; or `loadFailed` (`mail.retry`, `mail.cancel`).
 * - `composing`: `mail.template` takes another template's words ('blank': none); `mail.lang`
 *   loads that language's; `mail.subject` / `mail.body` type; `mail.send` checks both (as the
 *   server does: required, length, only {{name}} {{job}} {{company}}) -> `sending`;
 *   `template.save` (not for 'blank') -> `savingTemplate`; `mail.cancel` -> `closed`.
 * - `sending` (`sendMail`) -> `closed` with `notifySent` (the timeline with the mail on it); a
 *   failure -> `composing`, the words kept, with why (the server's field codes, `offline`, `gone`,
 *   `failed`).
 * - `savingTemplate` (`saveTemplate`, with the template's version) -> `composing` with
 *   `notifyTemplateSaved`; when a colleague saved it meanwhile, the words typed here stay, the
 *   version becomes theirs (a second save replaces their words) and `notifyTemplateOvertaken`
 *   says who.
 *
 * Effects the screen provides: actors `loadTemplates`, `sendMail`, `saveTemplate`; actions
 * `notifySent`, `notifyTemplateSaved`, `notifyTemplateOvertaken`, `notifyFailed`.
 */
export type Choice = CandidateTemplate | 'blank';
export type MailFailure = 'offline' | 'gone' | 'failed';
export type FieldErrors = Partial<Record<'subject' | 'body', CandidateMailCode>>;

export interface CandidateMailContext {
  applicationId: number;
  /** The candidate's page language: where the language starts. */
  defaultLang: string;
  lang: string;
  template: Choice;
  offer: boolean;
  templates: CandidateMailTemplate[];
  subject: string;
  body: string;
  errors: FieldErrors;
  failure: MailFailure | null;
}

export type CandidateMailEvent =
  | { type: 'mail.open'; template: Choice; offer?: boolean }
  | { type: 'mail.template'; template: Choice }
  | { type: 'mail.lang'; lang: string }
  | { type: 'mail.subject'; text: string }
  | { type: 'mail.body'; text: string }
  | { type: 'mail.send' }
  | { type: 'template.save' }
  | { type: 'mail.retry' }
  | { type: 'mail.cancel' };

/** Why a request failed, from the transport's error. */
export function failureOf(error: unknown): MailFailure {
  const status = (error as { status?: number } | null)?.status;
  if (status === 0) return 'offline';
  if (isGoneError(error)) return 'gone';
  return 'failed';
}

const fieldCodes = (error: unknown): FieldErrors => {
  const codes = ((error ?? {}) as { codes?: Record<string, string> }).codes ?? {};
  const errors: FieldErrors = {};
  if (codes.subject) errors.subject = codes.subject as CandidateMailCode;
  if (codes.body) errors.body = codes.body as CandidateMailCode;
  return errors;
};

const wordsOf = (templates: CandidateMailTemplate[], template: Choice) => {
  const found = templates.find((t) => t.template === template);
  return { subject: found?.subject ?? '', body: found?.body ?? '' };
};

export const candidateMailMachine = setup({
  types: {
    context: {} as CandidateMailContext,
    events: {} as CandidateMailEvent,
    input: {} as { applicationId: number; lang: string },
  },
  actors: {
    loadTemplates: fromPromise<CandidateMailTemplate[], { lang: string }>(async () => {
      throw new Error('loadTemplates is provided by the screen');
    }),
    sendMail: fromPromise<
      Timeline,
      { applicationId: number; subject: string; body: string; lang: string; template: Choice }
    >(async () => {
      throw new Error('sendMail is provided by the screen');
    }),
    saveTemplate: fromPromise<
      CandidateMailTemplate,
      { template: CandidateTemplate; lang: string; subject: string; body: string; version: number }
    >(async () => {
      throw new Error('saveTemplate is provided by the screen');
    }),
  },
  actions: {
    start: assign(({ context }, params: { template: Choice; offer: boolean }) => ({
      template: params.template,
      offer: params.offer,
      lang: context.defaultLang,
      subject: '',
      body: '',
      errors: {},
      failure: null,
    })),
    fill: assign(({ context }, params: { templates: CandidateMailTemplate[] }) => ({
      templates: params.templates,
      ...wordsOf(params.templates, context.template),
    })),
    choose: assign(({ context }, params: { template: Choice }) => ({
      template: params.template,
      ...wordsOf(context.templates, params.template),
      errors: {},
      failure: null,
    })),
    setLang: assign({ lang: (_, params: { lang: string }) => params.lang }),
    typeSubject: assign(({ context }, params: { text: string }) => ({
      subject: params.text,
      errors: { ...context.errors, subject: undefined },
      failure: null,
    })),
    typeBody: assign(({ context }, params: { text: string }) => ({
      body: params.text,
      errors: { ...context.errors, body: undefined },
      failure: null,
    })),
    check: assign({ errors: ({ context }) => candidateMailErrors(context.subject, context.body) }),
    refuse: assign((_, params: { error: unknown }) => {
      const errors = fieldCodes(params.error);
      return { errors, failure: Object.keys(errors).length ? null : failureOf(params.error) };
    }),
    storeTemplate: assign({
      templates: ({ context }, params: { saved: CandidateMailTemplate }) =>
        context.templates.map((t) => (t.template === params.saved.template ? params.saved : t)),
    }),
    /** A colleague's save: their version, the words typed here kept. */
    takeTheirVersion: assign({
      templates: ({ context }, params: { theirs: CandidateMailTemplate }) =>
        context.templates.map((t) =>
          t.template === params.theirs.template ? { ...t, version: params.theirs.version } : t,
        ),
    }),
    notifySent: (_, _params: { timeline: Timeline }) => {},
    notifyTemplateSaved: () => {},
    notifyTemplateOvertaken: (_, _params: { changedBy: string | null }) => {},
    notifyFailed: (_, _params: { error: unknown }) => {},
  },
  guards: {
    valid: ({ context }) => Object.keys(candidateMailErrors(context.subject, context.body)).length === 0,
    isTemplate: ({ context }) => context.template !== 'blank',
    isConflict: (_, params: { error: unknown }) => conflictIn(params.error) !== null,
  },
}).createMachine({
  id: 'candidateMail',
  context: ({ input }) => ({
    applicationId: input.applicationId,
    defaultLang: input.lang,
    lang: input.lang,
    template: 'blank',
    offer: false,
    templates: [],
    subject: '',
    body: '',
    errors: {},
    failure: null,
  }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        'mail.open': {
          target: 'loading',
          actions: {
            type: 'start',
            params: ({ event }) => ({ template: event.template, offer: event.offer ?? false }),
          },
        },
      },
    },
    loading: {
      invoke: {
        id: 'loadTemplates',
        src: 'loadTemplates',
        input: ({ context }) => ({ lang: context.lang }),
        onDone: {
          target: 'composing',
          actions: { type: 'fill', params: ({ event }) => ({ templates: event.output }) },
        },
        onError: 'loadFailed',
      },
      on: { 'mail.cancel': 'closed' },
    },
    loadFailed: {
      on: { 'mail.retry': 'loading', 'mail.cancel': 'closed' },
    },
    composing: {
      on: {
        'mail.template': {
          actions: { type: 'choose', params: ({ event }) => ({ template: event.template }) },
        },
        'mail.lang': {
          target: 'loading',
          actions: { type: 'setLang', params: ({ event }) => ({ lang: event.lang }) },
        },
        'mail.subject': { actions: { type: 'typeSubject', params: ({ event }) => ({ text: event.text }) } },
        'mail.body': { actions: { type: 'typeBody', params: ({ event }) => ({ text: event.text }) } },
        'mail.send': [{ guard: 'valid', target: 'sending' }, { actions: 'check' }],
        'template.save': { guard: 'isTemplate', target: 'checkingTemplate' },
        'mail.cancel': 'closed',
      },
    },
    checkingTemplate: {
      always: [
        { guard: 'valid', target: 'savingTemplate' },
        { target: 'composing', actions: 'check' },
      ],
    },
    sending: {
      invoke: {
        id: 'sendMail',
        src: 'sendMail',
        input: ({ context }) => ({
          applicationId: context.applicationId,
          subject: context.subject,
          body: context.body,
          lang: context.lang,
          template: context.template,
        }),
        onDone: {
          target: 'closed',
          actions: { type: 'notifySent', params: ({ event }) => ({ timeline: event.output }) },
        },
        onError: {
          target: 'composing',
          actions: [
            { type: 'refuse', params: ({ event }) => ({ error: event.error }) },
            { type: 'notifyFailed', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
    savingTemplate: {
      invoke: {
        id: 'saveTemplate',
        src: 'saveTemplate',
        input: ({ context }) => ({
          template: context.template as CandidateTemplate,
          lang: context.lang,
          subject: context.subject,
          body: context.body,
          version: context.templates.find((t) => t.template === context.template)?.version ?? 1,
        }),
        onDone: {
          target: 'composing',
          actions: [
            { type: 'storeTemplate', params: ({ event }) => ({ saved: event.output }) },
            'notifyTemplateSaved',
          ],
        },
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'composing',
            actions: [
              {
                type: 'takeTheirVersion',
                params: ({ event }) => ({ theirs: conflictIn<CandidateMailTemplate>(event.error)!.current }),
              },
              {
                type: 'notifyTemplateOvertaken',
                params: ({ event }) => ({ changedBy: conflictIn(event.error)!.changedBy }),
              },
            ],
          },
          {
            target: 'composing',
            actions: [
              { type: 'refuse', params: ({ event }) => ({ error: event.error }) },
              { type: 'notifyFailed', params: ({ event }) => ({ error: event.error }) },
            ],
          },
        ],
      },
    },
  },
});
