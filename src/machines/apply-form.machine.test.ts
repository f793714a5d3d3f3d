import { describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../api/client';
import {
  applicationFieldError,
  applicationFormErrors,
  phoneE164,
  type ApplicationAnswer,
  type PhoneCheck,
} from '../../contract/applications';
import { phoneCheck } from '../../contract/phone-check';
import en from '../i18n/locales/en/careers.json';
import {
  applyFormMachine,
  emptyFields,
  hasInput,
  phoneRulesActor,
  serverErrors,
  type PhoneRules,
  type ApplyContext,
  type ApplyEvent,
  type ApplyFields,
  type ErrorCode,
  type FieldName,
  type SubmitInput,
  type SubmitOutput,
} from './apply-form.machine';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  flush,
  everyTransition,
} from './testing/test-model';

const MB = 1024 * 1024;
const JOB = { id: 7, title: 'Copy Editor' };
/** The text a person reads for an error code (the English translation, which is the spec's text). */
const text = (code: ErrorCode | undefined) =>
  code ? (en.errors as Record<string, string>)[code] : undefined;
const file = (name: string, size = 1000, type = 'application/pdf') =>
  new File([new Uint8Array(size)], name, { type });

const RULES_DE: PhoneRules = {
  check: phoneCheck,
  countries: [
    { code: 'DE', callingCode: '49' },
    { code: 'IN', callingCode: '91' },
  ],
  country: 'DE',
};

const valid = (): ApplyFields => ({
  ...emptyFields(),
  full_name: 'Asha Menon',
  email: 'asha@example.com',
  contact_number: '9876543210',
  address: '12 MG Road, Kochi',
  resume: file('cv.pdf'),
  consent: true,
});

function start(overrides: Parameters<typeof applyFormMachine.provide>[0] = {}) {
  return createActor(applyFormMachine.provide(overrides)).start();
}

function fill(actor: ReturnType<typeof start>, fields: Partial<ApplyFields> = valid()) {
  for (const [name, value] of Object.entries(fields)) {
    actor.send({ type: 'field.change', name: name as keyof ApplyFields, value: value as string });
  }
}

describe('apply form rules', () => {
  const check = (name: FieldName, fields: Partial<ApplyFields>) =>
    text(applicationFieldError(name, { ...valid(), ...fields }));

  it('shows "Name is required" for a blank name', () => {
    expect(check('full_name', { full_name: '   ' })).toBe('Name is required');
    expect(check('full_name', { full_name: 'Asha' })).toBeUndefined();
  });

  it('shows "Email is required" and "Invalid email"', () => {
    expect(check('email', { email: '' })).toBe('Email is required');
    for (const bad of ['asha', 'asha@', 'asha@example', 'a b@example.com', 'a@b@example.com']) {
      expect(check('email', { email: bad })).toBe('Invalid email');
    }
    expect(check('email', { email: ' asha.menon+jobs@mail.example.co.in ' })).toBeUndefined();
  });

  it('shows "Must be 10 digits" for 9 or 11 digits typed for India, and "Contact is required" when blank', () => {
    expect(check('contact_number', { contact_number: '' })).toBe('Contact is required');
    for (const bad of ['987654321', '98765432101']) {
      expect(check('contact_number', { contact_number: bad })).toBe('Must be 10 digits');
      expect(
        text(
          applicationFieldError('contact_number', { ...valid(), contact_number: bad }, { phone: phoneCheck }),
        ),
      ).toBe('Must be 10 digits');
    }
    // any ten digits for India, as the spec's form took them, with the rules loaded or not
    for (const phone of [undefined, phoneCheck])
      expect(
        applicationFieldError('contact_number', { ...valid(), contact_number: '1234567890' }, { phone }),
      ).toBeUndefined();
  });

  it("judges a number by its country's rules once they have loaded, by its shape before", () => {
    const rule = (contact_number: string, contact_country: string, phone?: PhoneCheck) =>
      text(
        applicationFieldError('contact_number', { ...valid(), contact_number, contact_country }, { phone }),
      );
    // Germany: national or international, with the usual separators
    for (const number of ['030 901820', '+49 30 901820', '(030) 90-18-20'])
      expect(rule(number, 'DE', phoneCheck), number).toBeUndefined();
    expect(rule('030 12', 'DE', phoneCheck)).toBe('Enter a phone number of the chosen country');
    // a number with its own + is read in that country, whichever is chosen
    expect(rule('+44 20 7946 0958', 'IN', phoneCheck)).toBeUndefined();
    expect(rule('98765abc10', 'IN', phoneCheck)).toBe('Enter a phone number of the chosen country');
    expect(rule('+919876543', 'IN', phoneCheck)).toBe('Enter a phone number of the chosen country');
    expect(rule('5550100', 'XX', phoneCheck)).toBe('Enter a phone number of the chosen country');
    // before: the shape (5 to 15 digits with + ( ) - . and spaces); the server's check has the last word
    expect(rule('030 901820', 'DE')).toBeUndefined();
    expect(rule('030-abc', 'DE')).toBe('Enter a phone number of the chosen country');
    expect(rule('12', 'DE')).toBe('Enter a phone number of the chosen country');
    expect(phoneE164('030 901820', 'DE', phoneCheck)).toBe('+4930901820');
    expect(phoneE164('9876543210', 'IN', phoneCheck)).toBe('+919876543210');
  });

  it("takes the visitor's country when the phone rules arrive (India if a number was typed already), and judges a shown message again", () => {
    const actor = start();
    actor.send({ type: 'form.open', job: JOB });
    actor.send({ type: 'field.change', name: 'contact_number', value: '030-abc' });
    actor.send({ type: 'field.blur', name: 'contact_number' });
    expect(actor.getSnapshot().context.errors.contact_number).toBe('contactInvalid');
    actor.send({ type: 'field.change', name: 'contact_number', value: '030 1' });
    expect(actor.getSnapshot().context.errors.contact_number).toBe('contactInvalid'); // too few digits
    // typed while the field showed India: India stays
    actor.send({ type: 'phone.loaded', rules: RULES_DE });
    expect(actor.getSnapshot().context.fields.contact_country).toBe('IN');
    expect(actor.getSnapshot().context.errors.contact_number).toBe('contactInvalid');
    actor.send({ type: 'field.change', name: 'contact_country', value: 'DE' });
    actor.send({ type: 'field.change', name: 'contact_number', value: '030 901820' });
    expect(actor.getSnapshot().context.errors).toEqual({});
    // another country judges the number again
    actor.send({ type: 'field.change', name: 'contact_number', value: '030 12' });
    actor.send({ type: 'field.blur', name: 'contact_number' });
    expect(actor.getSnapshot().context.errors.contact_number).toBe('contactInvalid'); // no German number
    actor.send({ type: 'field.change', name: 'contact_country', value: 'IN' });
    expect(actor.getSnapshot().context.errors.contact_number).toBe('contactInvalid'); // not ten digits either
    // a new form starts at the visitor's country again, with the rules kept
    actor.send({ type: 'form.cancel' });
    actor.send({ type: 'form.open', job: JOB });
    expect(actor.getSnapshot().context.fields.contact_country).toBe('DE');
    expect(actor.getSnapshot().context.phone).toBe(RULES_DE);
  });

  it('loads the phone rules once, when the form first opens, and again after a failure', async () => {
    let loads = 0;
    let fail = true;
    const actor = start({
      actors: {
        loadPhoneRules: phoneRulesActor(async () => {
          loads += 1;
          if (fail) throw new Error('offline');
          return RULES_DE;
        }),
      },
    });
    expect(loads).toBe(0);
    actor.send({ type: 'form.open', job: JOB });
    await waitFor(actor, (s) => !s.context.phoneLoading);
    expect(actor.getSnapshot().context.phone).toBeNull();
    actor.send({ type: 'form.cancel' });
    fail = false;
    actor.send({ type: 'form.open', job: JOB });
    await waitFor(actor, (s) => s.context.phone !== null);
    actor.send({ type: 'form.cancel' });
    actor.send({ type: 'form.open', job: JOB });
    expect(loads).toBe(2);
    expect(actor.getSnapshot().context.fields.contact_country).toBe('DE');
  });

  it('shows "Address is required"', () => {
    expect(check('address', { address: ' ' })).toBe('Address is required');
  });

  it('checks the CV: required, at most 5 MB, PDF, DOC or DOCX only', () => {
    expect(check('resume', { resume: null })).toBe('Resume is required');
    expect(check('resume', { resume: file('cv.pdf', 5 * MB + 1) })).toBe('File too large (max 5MB)');
    expect(check('resume', { resume: file('cv.pdf', 5 * MB) })).toBeUndefined();
    expect(check('resume', { resume: file('photo.png', 1000, 'image/png') })).toBe(
      'Only PDF, DOC, DOCX allowed',
    );
    expect(check('resume', { resume: file('CV.DOCX') })).toBeUndefined();
    expect(check('resume', { resume: file('cv.doc') })).toBeUndefined();
  });

  it('asks for consent', () => {
    expect(check('consent', { consent: false })).toBe(en.errors.consentRequired);
  });

  it('lists every error of an empty form in form order', () => {
    expect(Object.entries(applicationFormErrors(emptyFields())).map(([f, c]) => [f, text(c)])).toEqual([
      ['full_name', 'Name is required'],
      ['email', 'Email is required'],
      ['contact_number', 'Contact is required'],
      ['address', 'Address is required'],
      ['resume', 'Resume is required'],
      ['consent', en.errors.consentRequired],
    ]);
  });

  it("reads the server's field codes, an unknown one as 'invalid'", () => {
    expect(
      serverErrors(
        new ApiError(
          400,
          'Please correct the highlighted fields.',
          {},
          {
            resume: 'resumeType',
            email: 'emailInvalid',
            contact_number: 'somethingNew',
            job_id: 'jobGone',
            unknown: 'x',
          },
        ),
      ),
    ).toEqual({ resume: 'resumeType', email: 'emailInvalid', contact_number: 'invalid', job_id: 'jobGone' });
  });
});

describe('apply modal', () => {
  it('opens for a job, remembering its id and title, with an empty form and a fresh key', () => {
    const actor = start();
    actor.send({ type: 'form.open', job: JOB });
    const { context, value } = actor.getSnapshot();
    expect(value).toBe('editing');
    expect(context.job).toEqual(JOB);
    expect(context.fields).toEqual(emptyFields());
    expect(context.idempotencyKey).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('checks a field when it loses focus, and clears the message once it is fixed', () => {
    const actor = start();
    actor.send({ type: 'form.open', job: JOB });
    actor.send({ type: 'field.change', name: 'contact_number', value: '987654321' });
    expect(actor.getSnapshot().context.errors).toEqual({}); // not while typing the first time
    actor.send({ type: 'field.blur', name: 'contact_number' });
    expect(text(actor.getSnapshot().context.errors.contact_number)).toBe('Must be 10 digits');
    actor.send({ type: 'field.change', name: 'contact_number', value: '9876543210' });
    expect(actor.getSnapshot().context.errors.contact_number).toBeUndefined();
  });

  it('checks the CV as soon as it is chosen', () => {
    const actor = start();
    actor.send({ type: 'form.open', job: JOB });
    actor.send({ type: 'field.change', name: 'resume', value: file('big.pdf', 6 * MB) });
    expect(text(actor.getSnapshot().context.errors.resume)).toBe('File too large (max 5MB)');
  });

  it('on Submit with errors shows them all, focuses the first and sends nothing', () => {
    // Arrange
    const focused: FieldName[] = [];
    const submit = vi.fn();
    const actor = start({
      actions: { focusField: (_, { name }) => focused.push(name) },
      actors: { submitApplication: fromPromise(async () => (submit(), {})) },
    });
    actor.send({ type: 'form.open', job: JOB });
    fill(actor, { full_name: 'Asha', email: 'bad' });
    // Act
    actor.send({ type: 'form.submit' });
    // Assert
    const { value, context } = actor.getSnapshot();
    expect(value).toBe('editing');
    expect(Object.keys(context.errors)).toEqual(['email', 'contact_number', 'address', 'resume', 'consent']);
    expect(focused).toEqual(['email']);
    expect(submit).not.toHaveBeenCalled();
  });

  it('sends the form with one Idempotency-Key, reports upload progress, then toasts the server Message, resets and closes', async () => {
    // Arrange
    const effects = controlledActors(['submitApplication']);
    const toasts: Array<string | undefined> = [];
    const actor = start({
      actors: effects.actors as never,
      actions: { notifySuccess: (_, { message }) => toasts.push(message) },
    });
    actor.send({ type: 'form.open', job: JOB });
    fill(actor);
    // Act
    actor.send({ type: 'form.submit' });
    // Assert
    expect(actor.getSnapshot().value).toBe('submitting');
    const input = effects.lastInput('submitApplication') as SubmitInput;
    expect(input.application).toMatchObject({
      job_id: 7,
      full_name: 'Asha Menon',
      email: 'asha@example.com',
      contact_number: '9876543210',
      address: '12 MG Road, Kochi',
      consent: true,
      website: '',
      idempotencyKey: actor.getSnapshot().context.idempotencyKey,
    });
    input.onProgress({ loaded: 512, total: 1024 });
    expect(actor.getSnapshot().context.progress).toEqual({ loaded: 512, total: 1024 });
    effects.settle('submitApplication', { Message: 'Thanks, we got it' } satisfies ApplicationAnswer);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(toasts).toEqual(['Thanks, we got it']);
    expect(actor.getSnapshot().context.fields).toEqual(emptyFields());
    expect(actor.getSnapshot().context.job).toBeNull();
  });

  it('keeps the typed form when the server refuses, and shows its field messages', async () => {
    // Arrange
    const failures: unknown[] = [];
    const actor = start({
      actors: {
        submitApplication: fromPromise(async (): Promise<SubmitOutput> => {
          throw new ApiError(
            415,
            'Only PDF, DOC, DOCX allowed',
            { resume: 'Only PDF, DOC, DOCX allowed' },
            { resume: 'resumeType' },
          );
        }),
      },
      actions: { notifyFailure: (_, { error }) => failures.push(error) },
    });
    actor.send({ type: 'form.open', job: JOB });
    fill(actor);
    const key = actor.getSnapshot().context.idempotencyKey;
    // Act
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('editing'));
    // Assert
    const { context } = actor.getSnapshot();
    expect(context.fields.full_name).toBe('Asha Menon');
    expect(context.fields.resume?.name).toBe('cv.pdf');
    expect(text(context.errors.resume)).toBe('Only PDF, DOC, DOCX allowed');
    expect(failures).toHaveLength(1);
    expect(context.idempotencyKey).toBe(key); // an unchanged retry is the same submission
    actor.send({ type: 'field.change', name: 'resume', value: file('cv.docx') });
    expect(actor.getSnapshot().context.idempotencyKey).not.toBe(key); // a changed form is a new one
  });

  it('Cancel resets the form and closes; during the upload it also aborts the request', async () => {
    let aborted = false;
    const actor = start({
      actors: {
        submitApplication: fromPromise(
          ({ signal }) =>
            new Promise<ApplicationAnswer>((_, reject) => {
              signal.addEventListener('abort', () => {
                aborted = true;
                reject(new ApiError(0, 'Aborted'));
              });
            }),
        ),
      },
    });
    actor.send({ type: 'form.open', job: JOB });
    fill(actor, { full_name: 'Asha' });
    actor.send({ type: 'form.cancel' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.fields).toEqual(emptyFields());

    actor.send({ type: 'form.open', job: JOB });
    fill(actor);
    actor.send({ type: 'form.submit' });
    actor.send({ type: 'form.cancel' });
    await flush();
    expect(aborted).toBe(true);
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.fields).toEqual(emptyFields());
  });
});

describe('apply modal dismissed by the backdrop or Escape', () => {
  it('closes an untouched form at once', () => {
    const actor = createActor(applyFormMachine).start();
    actor.send({ type: 'form.open', job: JOB });
    actor.send({ type: 'form.dismiss' });
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('asks before throwing away what was typed: Keep editing keeps it, Discard empties the form', () => {
    const actor = createActor(applyFormMachine).start();
    actor.send({ type: 'form.open', job: JOB });
    fill(actor, { full_name: 'Asha' });
    actor.send({ type: 'form.dismiss' });
    expect(actor.getSnapshot().value).toBe('confirmingDiscard');
    actor.send({ type: 'discard.cancel' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.fields.full_name).toBe('Asha');
    actor.send({ type: 'form.dismiss' });
    actor.send({ type: 'form.dismiss' }); // Escape again on the question: back to the form
    expect(actor.getSnapshot().value).toBe('editing');
    actor.send({ type: 'form.dismiss' });
    actor.send({ type: 'discard.confirm' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.fields).toEqual(emptyFields());
  });

  it('counts a chosen CV or the ticked box as input, and ignores a dismiss while the CV uploads', () => {
    expect(hasInput({ ...emptyFields(), consent: true })).toBe(true);
    expect(hasInput({ ...emptyFields(), full_name: '   ' })).toBe(false);
    expect(hasInput({ ...emptyFields(), website: 'bot' })).toBe(false);
    const actor = createActor(
      applyFormMachine.provide({
        actors: { submitApplication: fromPromise(() => new Promise<SubmitOutput>(() => {})) },
      }),
    ).start();
    actor.send({ type: 'form.open', job: JOB });
    fill(actor);
    actor.send({ type: 'form.submit' });
    actor.send({ type: 'form.dismiss' });
    expect(actor.getSnapshot().value).toBe('submitting');
  });
});

describe('apply modal paths', () => {
  // The model starts from a form where everything but the name is already filled in, so its
  // states stay few: name empty or typed, its message shown or not, progress or not.
  const prefilled = (): ApplyFields => ({ ...valid(), full_name: '' });
  const modelImplementations = {
    // in the model the name stands for all input (the rest is always filled in)
    guards: { hasInput: ({ context }: { context: ApplyContext }) => context.fields.full_name !== '' },
    actions: {
      reset: assign({ job: null, fields: prefilled(), errors: {}, progress: null, idempotencyKey: '' }),
      newIdempotencyKey: assign({ idempotencyKey: 'key-1' }),
    },
  };
  const machine = applyFormMachine.provide(modelImplementations as never);
  const events = [
    { type: 'form.open', job: JOB },
    { type: 'field.change', name: 'full_name', value: 'Asha Menon' },
    { type: 'field.change', name: 'full_name', value: '' },
    { type: 'field.blur', name: 'full_name' },
    { type: 'form.submit' },
    { type: 'form.cancel' },
    { type: 'form.dismiss' },
    { type: 'discard.confirm' },
    { type: 'discard.cancel' },
    { type: 'upload.progress', loaded: 50, total: 100 },
    { type: 'phone.loaded', rules: RULES_DE },
    { type: 'phone.failed' },
    { type: doneEvent('submitApplication'), output: { Message: 'Application submitted successfully!' } },
    { type: errorEvent('submitApplication'), error: new ApiError(0, 'offline') },
  ];
  const model = createPathModel(machine, { events: events as never });
  const walk = everyTransition(model, 'apply-form.machine', events);
  const paths = walk.paths;

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  it('visits every state', () => {
    const visited = new Set(paths.flatMap((p) => [p.state.value, ...p.steps.map((s) => s.state.value)]));
    expect([...visited].sort()).toEqual(['closed', 'confirmingDiscard', 'editing', 'submitting']);
  });

  for (const path of paths) {
    it(`keeps what a person sees consistent: ${path.description}`, async () => {
      const effects = controlledActors(['submitApplication']);
      const toasts: string[] = [];
      const actor = createActor(
        machine.provide({
          actors: effects.actors as never,
          actions: {
            notifySuccess: () => toasts.push('success'),
            notifyFailure: () => toasts.push('failure'),
          },
        }),
      ).start();
      const send = ({ event }: { event: unknown }) => actor.send(event as ApplyEvent);
      await path.test({
        events: {
          'form.open': send,
          'field.change': send,
          'field.blur': send,
          'form.submit': send,
          'form.cancel': send,
          'form.dismiss': send,
          'discard.confirm': send,
          'discard.cancel': send,
          'upload.progress': send,
          'phone.loaded': send,
          'phone.failed': send,
          [doneEvent('submitApplication')]: async ({ event }: { event: unknown }) => {
            effects.settle('submitApplication', (event as { output: unknown }).output);
            await flush();
          },
          [errorEvent('submitApplication')]: async ({ event }: { event: unknown }) => {
            effects.fail('submitApplication', (event as { error: unknown }).error);
            await flush();
          },
        },
        states: {
          // closed: no dialog, nothing typed is kept
          closed: () => {
            const { context } = actor.getSnapshot();
            expect(context.job).toBeNull();
            expect(context.fields.full_name).toBe('');
          },
          // editing: the dialog for the remembered job; a name message only for a blank name
          editing: () => {
            const { context } = actor.getSnapshot();
            expect(context.job).toEqual(JOB);
            if (context.errors.full_name) expect(context.fields.full_name).toBe('');
          },
          // asking: what was typed is still there
          confirmingDiscard: () => expect(actor.getSnapshot().context.fields.full_name).not.toBe(''),
          // submitting: a valid form is on its way, with the key of this submission
          submitting: () => {
            const { context } = actor.getSnapshot();
            expect(applicationFormErrors(context.fields)).toEqual({});
            expect((effects.lastInput('submitApplication') as SubmitInput).application.idempotencyKey).toBe(
              'key-1',
            );
          },
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
      if (path.steps.some((s) => s.event.type === doneEvent('submitApplication')))
        expect(toasts).toContain('success');
    });
  }
});
