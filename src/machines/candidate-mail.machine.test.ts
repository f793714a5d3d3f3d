import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { Timeline } from '../../contract/application-timeline';
import type { CandidateMailTemplate } from '../../contract/candidate-mail';
import { VersionConflict } from '../../contract/versions';
import { candidateMailMachine, type CandidateMailEvent } from './candidate-mail.machine';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  everyTransition,
  flush,
} from './testing/test-model';

const de: CandidateMailTemplate[] = [
  {
    template: 'invite',
    lang: 'de',
    subject: 'Gespräch: {{job}}',
    body: 'Guten Tag {{name}},\n\nkommen Sie.',
    version: 1,
  },
  { template: 'next', lang: 'de', subject: 'Nächster Schritt', body: 'Weiter, {{name}}.', version: 1 },
  {
    template: 'reject',
    lang: 'de',
    subject: 'Ihre Bewerbung als {{job}}',
    body: 'Leider nicht, {{name}}.',
    version: 3,
  },
];
const en = de.map((t) => ({ ...t, lang: 'en', subject: `EN ${t.template}` }));
const timeline: Timeline = {
  events: [{ kind: 'received', at: '2026-11-20T09:00:00.000Z' }],
  colleagues: [],
};

function start() {
  const ctl = controlledActors(['loadTemplates', 'sendMail', 'saveTemplate']);
  const told: string[] = [];
  const actor = createActor(
    candidateMailMachine.provide({
      actors: ctl.actors as never,
      actions: {
        notifySent: () => void told.push('sent'),
        notifyTemplateSaved: () => void told.push('saved'),
        notifyTemplateOvertaken: (_, { changedBy }) => void told.push(`overtaken by ${changedBy}`),
        notifyFailed: () => void told.push('failed'),
      },
    }),
    { input: { applicationId: 7, lang: 'de' } },
  ).start();
  return { actor, ctl, told, ctx: () => actor.getSnapshot().context, value: () => actor.getSnapshot().value };
}

describe('an email to a candidate', () => {
  it('offers the rejection in the candidate’s language, and sends it as edited', async () => {
    const { actor, ctl, ctx, told, value } = start();
    actor.send({ type: 'mail.open', template: 'reject', offer: true });
    expect(ctl.lastInput('loadTemplates')).toEqual({ lang: 'de' });
    ctl.settle('loadTemplates', de);
    await flush();
    expect(ctx()).toMatchObject({
      offer: true,
      subject: 'Ihre Bewerbung als {{job}}',
      body: 'Leider nicht, {{name}}.',
    });
    actor.send({ type: 'mail.body', text: 'Leider nicht, {{name}}. Viel Erfolg!' });
    actor.send({ type: 'mail.send' });
    expect(ctl.lastInput('sendMail')).toEqual({
      applicationId: 7,
      subject: 'Ihre Bewerbung als {{job}}',
      body: 'Leider nicht, {{name}}. Viel Erfolg!',
      lang: 'de',
      template: 'reject',
    });
    ctl.settle('sendMail', timeline);
    await flush();
    expect(value()).toBe('closed');
    expect(told).toEqual(['sent']);
  });

  it('switches template and language, and starts blank from nothing', async () => {
    const { actor, ctl, ctx } = start();
    actor.send({ type: 'mail.open', template: 'invite' });
    ctl.settle('loadTemplates', de);
    await flush();
    actor.send({ type: 'mail.template', template: 'blank' });
    expect(ctx()).toMatchObject({ subject: '', body: '' });
    actor.send({ type: 'mail.template', template: 'next' });
    actor.send({ type: 'mail.lang', lang: 'en' });
    expect(ctl.lastInput('loadTemplates')).toEqual({ lang: 'en' });
    ctl.settle('loadTemplates', en);
    await flush();
    expect(ctx()).toMatchObject({ lang: 'en', template: 'next', subject: 'EN next' });
  });

  it('refuses a missing subject or an unknown placeholder before sending, and keeps the words when sending fails', async () => {
    const { actor, ctl, ctx, value, told } = start();
    actor.send({ type: 'mail.open', template: 'blank' });
    ctl.settle('loadTemplates', de);
    await flush();
    actor.send({ type: 'mail.body', text: 'Your salary: {{salary}}' });
    actor.send({ type: 'mail.send' });
    expect(value()).toBe('composing');
    expect(ctx().errors).toEqual({ subject: 'subjectRequired', body: 'unknownPlaceholder' });
    actor.send({ type: 'mail.subject', text: 'Hello' });
    expect(ctx().errors.subject).toBeUndefined();
    actor.send({ type: 'mail.body', text: 'Hello {{name}}' });
    actor.send({ type: 'mail.send' });
    ctl.fail('sendMail', Object.assign(new Error('offline'), { status: 0 }));
    await flush();
    expect(ctx()).toMatchObject({ subject: 'Hello', body: 'Hello {{name}}', failure: 'offline' });
    actor.send({ type: 'mail.send' });
    ctl.fail('sendMail', Object.assign(new Error('bad'), { status: 400, codes: { body: 'bodyTooLong' } }));
    await flush();
    expect(ctx()).toMatchObject({ errors: { body: 'bodyTooLong' }, failure: null });
    expect(told).toEqual(['failed', 'failed']);
  });

  it('saves a template at its version, and keeps the words typed when a colleague saved it meanwhile', async () => {
    const { actor, ctl, ctx, told } = start();
    actor.send({ type: 'mail.open', template: 'reject' });
    ctl.settle('loadTemplates', de);
    await flush();
    actor.send({ type: 'mail.subject', text: 'Zu Ihrer Bewerbung als {{job}}' });
    actor.send({ type: 'template.save' });
    expect(ctl.lastInput('saveTemplate')).toMatchObject({ template: 'reject', lang: 'de', version: 3 });
    ctl.fail(
      'saveTemplate',
      new VersionConflict({
        current: { ...de[2]!, subject: 'Theirs', version: 4 },
        changedBy: 'ravi@manna.example',
        changedAt: null,
      }),
    );
    await flush();
    expect(ctx().subject).toBe('Zu Ihrer Bewerbung als {{job}}');
    expect(told).toEqual(['overtaken by ravi@manna.example']);
    actor.send({ type: 'template.save' });
    expect(ctl.lastInput('saveTemplate')).toMatchObject({ version: 4 });
    ctl.settle('saveTemplate', { ...de[2]!, subject: 'Zu Ihrer Bewerbung als {{job}}', version: 5 });
    await flush();
    expect(ctx().templates[2]!.version).toBe(5);
    // blank has no template to save
    actor.send({ type: 'mail.template', template: 'blank' });
    actor.send({ type: 'template.save' });
    expect(actor.getSnapshot().value).toBe('composing');
  });
});

describe('candidate mail paths', () => {
  const events = [
    { type: 'mail.open', template: 'reject', offer: true },
    { type: 'mail.template', template: 'blank' },
    { type: 'mail.lang', lang: 'en' },
    { type: 'mail.subject', text: '' },
    { type: 'mail.send' },
    { type: 'template.save' },
    { type: 'mail.retry' },
    { type: 'mail.cancel' },
    { type: doneEvent('loadTemplates'), output: de },
    { type: errorEvent('loadTemplates'), error: new Error('down') },
    { type: doneEvent('sendMail'), output: timeline },
    { type: errorEvent('sendMail'), error: Object.assign(new Error('down'), { status: 500 }) },
    { type: doneEvent('saveTemplate'), output: de[2] },
    { type: errorEvent('saveTemplate'), error: Object.assign(new Error('down'), { status: 500 }) },
  ];
  const model = createPathModel(candidateMailMachine, {
    events: events as never,
    input: { applicationId: 7, lang: 'de' },
    serializeState: (snapshot: {
      value: unknown;
      context: { template: string; subject: string; lang: string; failure: string | null; errors: object };
    }) =>
      JSON.stringify([
        snapshot.value,
        snapshot.context.template,
        snapshot.context.subject,
        snapshot.context.lang,
        snapshot.context.failure,
        Object.values(snapshot.context.errors).filter(Boolean).length,
      ]),
  } as never);
  const walk = everyTransition(model, 'candidate-mail.machine', events);

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThanOrEqual(15);
  });

  for (const path of walk.paths) {
    it(`nothing is sent without a subject and body: ${path.description}`, async () => {
      const { actor, ctl, ctx } = start();
      const send = ({ event }: { event: unknown }) => actor.send(event as CandidateMailEvent);
      const settle =
        (src: 'loadTemplates' | 'sendMail' | 'saveTemplate', ok: boolean) =>
        async ({ event }: { event: unknown }) => {
          const e = event as { output?: unknown; error?: unknown };
          if (ok) ctl.settle(src, e.output);
          else ctl.fail(src, e.error);
          await flush();
        };
      await path.test({
        events: {
          'mail.open': send,
          'mail.template': send,
          'mail.lang': send,
          'mail.subject': send,
          'mail.send': send,
          'template.save': send,
          'mail.retry': send,
          'mail.cancel': send,
          [doneEvent('loadTemplates')]: settle('loadTemplates', true),
          [errorEvent('loadTemplates')]: settle('loadTemplates', false),
          [doneEvent('sendMail')]: settle('sendMail', true),
          [errorEvent('sendMail')]: settle('sendMail', false),
          [doneEvent('saveTemplate')]: settle('saveTemplate', true),
          [errorEvent('saveTemplate')]: settle('saveTemplate', false),
        },
        states: {
          sending: () => {
            expect(ctx().subject.trim()).not.toBe('');
            expect(ctx().body.trim()).not.toBe('');
          },
          savingTemplate: () => expect(ctx().template).not.toBe('blank'),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    });
  }
});
