import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiError } from '../api/client';
import {
  CONTACT_MESSAGES,
  contactFormErrors,
  type ContactCheckedField,
  type ContactMessageAnswer,
} from '../../contract/contact';
import { emailError, fieldErrorAnswer } from '../../contract/form-rules';
import {
  contactFormMachine,
  EMPTY_FIELDS,
  type ContactField,
  type ContactFormEvent,
  type SendInput,
  type SendOutput,
} from './contact-form.machine';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  timerEvent,
  everyTransition,
} from './testing/test-model';

const ANSWER: ContactMessageAnswer = { message: CONTACT_MESSAGES.success, message_id: 7 };
const microtasks = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

/** A machine whose effects are spies; `send` resolves or rejects as the test says. */
function setUp(send: (input: SendInput) => Promise<SendOutput> = async () => ANSWER) {
  const focused: ContactCheckedField[] = [];
  const successes: unknown[] = [];
  const failures: unknown[] = [];
  const inputs: SendInput[] = [];
  const queued: true[] = [];
  const actor = createActor(
    contactFormMachine.provide({
      actors: {
        sendMessage: fromPromise<SendOutput, SendInput>(({ input }) => {
          inputs.push(input);
          return send(input);
        }),
      },
      actions: {
        focusField: (_, { field }) => focused.push(field),
        notifySuccess: (_, { answer }) => successes.push(answer),
        notifyFailure: (_, { error }) => failures.push(error),
        notifyQueued: () => queued.push(true),
      },
    }),
    { input: { lang: 'fr' } },
  ).start();
  const type = (name: ContactField, value: string) => actor.send({ type: 'field.change', name, value });
  const fillValid = () => {
    type('name', 'Asha Menon');
    type('email', 'asha@journal.example');
    type('company', 'Kerala Journal of Botany');
    type('message', 'Please show us the review workflow.');
  };
  const errors = () => actor.getSnapshot().context.errors;
  return { actor, type, fillValid, errors, focused, successes, failures, inputs, queued };
}

describe('contact form rules', () => {
  it('names each missing field with the spec texts', () => {
    expect(contactFormErrors(EMPTY_FIELDS)).toEqual({
      name: 'nameRequired',
      email: 'emailRequired',
      message: 'messageRequired',
    });
    expect(CONTACT_MESSAGES.nameRequired).toBe('Name is required');
    expect(CONTACT_MESSAGES.emailRequired).toBe('Email is required');
    expect(CONTACT_MESSAGES.emailInvalid).toBe('Please enter a valid email');
    expect(CONTACT_MESSAGES.messageRequired).toBe('Message is required');
  });

  it('takes the company as optional and a blank of spaces as blank', () => {
    expect(contactFormErrors({ ...EMPTY_FIELDS, name: 'A', email: 'a@b.co', message: 'Hi' })).toEqual({});
    expect(contactFormErrors({ ...EMPTY_FIELDS, name: '   ', email: 'a@b.co', message: ' ' })).toEqual({
      name: 'nameRequired',
      message: 'messageRequired',
    });
  });

  it.each(['asha', 'asha@', 'asha@journal', 'as ha@journal.org', '@journal.org', 'a@b@c.org'])(
    'calls "%s" malformed',
    (email) => expect(emailError(email)).toBe('emailInvalid'),
  );
  it.each(['asha@journal.org', 'a.b+c@d.co.uk', '  asha@journal.org  '])('accepts "%s"', (email) =>
    expect(emailError(email)).toBeUndefined(),
  );

  it('answers a refusal with the message and the code of each field', () => {
    expect(
      fieldErrorAnswer(
        'Check',
        contactFormErrors({ ...EMPTY_FIELDS, name: 'A', message: 'Hi' }),
        CONTACT_MESSAGES,
      ),
    ).toEqual({
      message: 'Check',
      errors: { email: 'Email is required' },
      codes: { email: 'emailRequired' },
    });
  });
});

describe('contact form machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('checks the email while typing: "Please enter a valid email" for a malformed address', () => {
    const { type, errors } = setUp();
    type('email', 'asha@jour');
    expect(errors()).toEqual({ email: 'emailInvalid' });
    type('email', 'asha@journal.org');
    expect(errors()).toEqual({});
  });

  it('shows the typing error once: after it vanished, more keystrokes do not bring it back until blur', () => {
    const { actor, type, errors } = setUp();
    type('email', 'a');
    expect(errors()).toEqual({ email: 'emailInvalid' });
    type('email', 'as'); // still on screen: it stays while typing goes on
    vi.advanceTimersByTime(499);
    expect(errors()).toEqual({ email: 'emailInvalid' });
    vi.advanceTimersByTime(1);
    expect(errors()).toEqual({});
    for (const text of ['ash', 'asha', 'asha@', 'asha@j']) {
      type('email', text);
      expect(errors(), text).toEqual({});
    }
    actor.send({ type: 'field.blur', name: 'email' });
    expect(errors()).toEqual({ email: 'emailInvalid' });
    vi.advanceTimersByTime(500);
    type('email', 'asha@jo'); // focus came back: shown once again
    expect(errors()).toEqual({ email: 'emailInvalid' });
    // and a submit always shows it
    vi.advanceTimersByTime(500);
    type('email', 'asha@jou');
    expect(errors()).toEqual({});
    actor.send({ type: 'form.submit' });
    expect(errors().email).toBe('emailInvalid');
  });

  it('does not complain about an empty email while typing, but does on blur', () => {
    const { actor, type, errors } = setUp();
    type('email', '');
    expect(errors()).toEqual({});
    actor.send({ type: 'field.blur', name: 'email' });
    expect(errors()).toEqual({ email: 'emailRequired' });
  });

  it('checks the email on blur and leaves other fields alone on blur', () => {
    const { actor, type, errors } = setUp();
    actor.send({ type: 'field.blur', name: 'name' });
    expect(errors()).toEqual({});
    type('email', 'nope');
    vi.advanceTimersByTime(500);
    actor.send({ type: 'field.blur', name: 'email' });
    expect(errors()).toEqual({ email: 'emailInvalid' });
  });

  it('lets errors vanish by themselves after 0.5 s, not before', () => {
    const { actor, errors } = setUp();
    actor.send({ type: 'form.submit' });
    expect(errors()).toEqual({ name: 'nameRequired', email: 'emailRequired', message: 'messageRequired' });
    vi.advanceTimersByTime(499);
    expect(errors()).not.toEqual({});
    vi.advanceTimersByTime(1);
    expect(errors()).toEqual({});
  });

  it('restarts the 0.5 s when a new error appears', () => {
    const { type, errors } = setUp();
    type('email', 'a');
    vi.advanceTimersByTime(400);
    type('email', 'ab');
    vi.advanceTimersByTime(400);
    expect(errors()).toEqual({ email: 'emailInvalid' });
    vi.advanceTimersByTime(100);
    expect(errors()).toEqual({});
  });

  it('on submit focuses the first invalid field and does not send', () => {
    const { actor, type, focused, inputs } = setUp();
    type('name', 'Asha');
    actor.send({ type: 'form.submit' });
    expect(focused).toEqual(['email']);
    type('email', 'asha@journal.org');
    actor.send({ type: 'form.submit' });
    expect(focused).toEqual(['email', 'message']);
    expect(inputs).toHaveLength(0);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('goes idle -> sending -> idle, clears the form and says so', async () => {
    let finish!: (a: typeof ANSWER) => void;
    const { actor, fillValid, successes, inputs } = setUp(() => new Promise((resolve) => (finish = resolve)));
    fillValid();
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().matches('sending')).toBe(true);
    expect(inputs[0].message).toEqual({
      name: 'Asha Menon',
      email: 'asha@journal.example',
      company: 'Kerala Journal of Botany',
      message: 'Please show us the review workflow.',
      website: '',
      lang: 'fr',
    });
    expect(inputs[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    finish(ANSWER);
    await microtasks();
    expect(actor.getSnapshot().matches({ idle: 'clean' })).toBe(true);
    expect(actor.getSnapshot().context.fields).toEqual(EMPTY_FIELDS);
    expect(successes).toEqual([ANSWER]);
  });

  it('keeps what was typed when sending fails, and retries the same text with the same key', async () => {
    let attempt = 0;
    const { actor, fillValid, failures, inputs } = setUp(async () => {
      attempt++;
      if (attempt === 1) throw new ApiError(0, 'Failed to fetch');
      return ANSWER;
    });
    fillValid();
    actor.send({ type: 'form.submit' });
    await microtasks();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.fields.name).toBe('Asha Menon');
    expect(failures).toHaveLength(1);
    actor.send({ type: 'form.submit' });
    await microtasks();
    expect(inputs[1].idempotencyKey).toBe(inputs[0].idempotencyKey);
    expect(actor.getSnapshot().context.fields).toEqual(EMPTY_FIELDS);
  });

  it('uses a new key once the text changed after a failure', async () => {
    const { actor, type, fillValid, inputs } = setUp(async () => {
      throw new ApiError(503, 'down');
    });
    fillValid();
    actor.send({ type: 'form.submit' });
    await microtasks();
    type('message', 'A different question.');
    actor.send({ type: 'form.submit' });
    await microtasks();
    expect(inputs[1].idempotencyKey).not.toBe(inputs[0].idempotencyKey);
  });

  it('shows the field errors the server sent and focuses the first', async () => {
    const { actor, fillValid, errors, focused } = setUp(async () => {
      throw new ApiError(
        400,
        'Please check the highlighted fields.',
        { email: CONTACT_MESSAGES.emailInvalid },
        { email: 'emailInvalid' },
      );
    });
    fillValid();
    actor.send({ type: 'form.submit' });
    await microtasks();
    expect(errors()).toEqual({ email: 'emailInvalid' });
    expect(focused).toEqual(['email']);
    vi.advanceTimersByTime(500);
    expect(errors()).toEqual({});
    expect(actor.getSnapshot().context.fields.email).toBe('asha@journal.example');
  });

  it('ignores typing while a message is being sent', () => {
    const { actor, type, fillValid } = setUp(() => new Promise(() => {}));
    fillValid();
    actor.send({ type: 'form.submit' });
    type('name', 'Someone else');
    expect(actor.getSnapshot().context.fields.name).toBe('Asha Menon');
  });
});

describe('contact form paths', () => {
  const sendFailureWithFields = { status: 400, codes: { email: 'emailInvalid' } };
  const sendFailure = { status: 0 };
  const events = [
    { type: 'field.change', name: 'name', value: 'Asha' },
    { type: 'field.change', name: 'email', value: 'asha@jour' },
    { type: 'field.change', name: 'email', value: 'asha@journal.org' },
    { type: 'field.change', name: 'message', value: 'Hello' },
    { type: 'field.blur', name: 'email' },
    { type: 'form.submit' },
    { type: doneEvent('sendMessage'), output: ANSWER },
    { type: errorEvent('sendMessage'), error: sendFailureWithFields },
    { type: errorEvent('sendMessage'), error: sendFailure },
    { type: timerEvent('errorDisplay') },
  ];
  const model = createPathModel(contactFormMachine, {
    events: events as never,
    serializeState: (state) => {
      const { fields, errors } = state.context;
      return JSON.stringify({
        value: state.value,
        filled: [fields.name !== '', emailError(fields.email) ?? 'ok', fields.message !== ''],
        errors: Object.keys(errors).sort(),
      });
    },
  });
  const walk = everyTransition(model, 'contact-form.machine', events);
  const paths = walk.paths;

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  it('passes through every resting state', () => {
    // getShortestPaths drops paths that are the start of a longer one, so look at every step.
    const reached = new Set(
      paths
        .flatMap((p) => [p.state, ...p.steps.map((step) => step.state)])
        .map((s) => JSON.stringify(s.value)),
    );
    expect([...reached].sort()).toEqual(['"sending"', '{"idle":"clean"}', '{"idle":"showingErrors"}'].sort());
  });

  for (const path of paths) {
    it(`shows what each state promises: ${path.description}`, async () => {
      vi.useFakeTimers();
      const control = controlledActors(['sendMessage']);
      const actor = createActor(contactFormMachine.provide({ actors: control.actors as never }), {
        input: { lang: 'en' },
      }).start();
      const send = ({ event }: { event: unknown }) => actor.send(event as ContactFormEvent);
      await path.test({
        events: {
          'field.change': send,
          'field.blur': send,
          'form.submit': send,
          [doneEvent('sendMessage')]: async () => {
            control.settle('sendMessage', ANSWER);
            await microtasks();
          },
          [errorEvent('sendMessage')]: async ({ event }: { event: unknown }) => {
            control.fail('sendMessage', (event as unknown as { error: unknown }).error);
            await microtasks();
          },
          [timerEvent('errorDisplay')]: () => {
            vi.advanceTimersByTime(500);
          },
        },
        states: {
          'idle.clean': () => expect(actor.getSnapshot().context.errors).toEqual({}),
          'idle.showingErrors': () =>
            expect(Object.keys(actor.getSnapshot().context.errors).length).toBeGreaterThan(0),
          sending: () => {
            const snapshot = actor.getSnapshot();
            expect(snapshot.matches('sending')).toBe(true);
            const input = control.lastInput('sendMessage') as SendInput;
            expect(input.message.name).toBe(snapshot.context.fields.name);
            expect(input.idempotencyKey).toBe(snapshot.context.idempotencyKey);
          },
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
      vi.useRealTimers();
    });
  }
});

describe('contact form without a connection (send queue)', () => {
  it('clears the form and says the message waits when the screen kept it offline', async () => {
    // Arrange: the screen's sendMessage kept it in the send queue (src/offline/submit.ts)
    const { actor, fillValid, successes, failures, queued, inputs } = setUp(async (input) => ({
      queued: true,
      id: input.idempotencyKey,
    }));
    fillValid();
    // Act
    actor.send({ type: 'form.submit' });
    await microtasks();
    // Assert
    expect(actor.getSnapshot().value).toEqual({ idle: 'clean' });
    expect(actor.getSnapshot().context.fields).toEqual(EMPTY_FIELDS);
    expect(queued).toHaveLength(1);
    expect(successes).toHaveLength(0);
    expect(failures).toHaveLength(0);
    expect(inputs[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });
});
