import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { BlogTextImage } from '../../contract/blog-form';
import { textImageMachine, type TextImageEvent } from './text-image.machine';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  everyTransition,
  flush,
} from './testing/test-model';

const png = (size = 1000, type = 'image/png') => new File([new Uint8Array(size)], 'chart.png', { type });
const stored: BlogTextImage = {
  src: '/media/blog/0b8f6a1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b.webp',
  srcset: '/media/blog/0b8f6a1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b.webp 480w',
  width: 480,
  height: 240,
};

function start() {
  const ctl = controlledActors(['uploadImage']);
  const inserted: { image: BlogTextImage; alt: string }[] = [];
  const actor = createActor(
    textImageMachine.provide({
      actors: ctl.actors as never,
      actions: { insertImage: (_, params) => void inserted.push(params) },
    }),
  ).start();
  return {
    actor,
    ctl,
    inserted,
    ctx: () => actor.getSnapshot().context,
    state: () => actor.getSnapshot().value,
  };
}

describe('an image in the text', () => {
  it('uploads the chosen file and puts it in the text with its alt text', async () => {
    const { actor, ctl, inserted, state } = start();
    actor.send({ type: 'image.open' });
    const file = png();
    actor.send({ type: 'image.file', file });
    actor.send({ type: 'image.alt', alt: '  Submissions per month  ' });
    actor.send({ type: 'image.insert' });
    expect(state()).toBe('uploading');
    expect(ctl.lastInput('uploadImage')).toEqual({ file });
    ctl.settle('uploadImage', stored);
    await flush();
    expect(state()).toBe('closed');
    expect(inserted).toEqual([{ image: stored, alt: 'Submissions per month' }]);
  });

  it('asks for a file and for alt text before sending anything', () => {
    const { actor, ctl, ctx, state } = start();
    actor.send({ type: 'image.open' });
    actor.send({ type: 'image.insert' });
    expect(ctx().error).toBe('fileRequired');
    actor.send({ type: 'image.file', file: png() });
    actor.send({ type: 'image.insert' });
    expect(ctx().error).toBe('altRequired');
    expect(state()).toBe('choosing');
    expect(ctl.lastInput('uploadImage')).toBeUndefined();
  });

  it('refuses an SVG or a file over 5 MB at once, and a dropped file opens the panel with it', () => {
    const { actor, ctx } = start();
    actor.send({ type: 'image.open', file: png(10, 'image/svg+xml') });
    expect(ctx().error).toBe('notImage');
    actor.send({ type: 'image.alt', alt: 'A logo' });
    // typing does not hide what is wrong with the file
    expect(ctx().error).toBe('notImage');
    actor.send({ type: 'image.insert' });
    expect(actor.getSnapshot().value).toBe('choosing');
    actor.send({ type: 'image.file', file: png(5 * 1024 * 1024 + 1) });
    expect(ctx().error).toBe('tooLarge');
    actor.send({ type: 'image.file', file: png() });
    expect(ctx().error).toBeNull();
  });

  it('keeps the file and the alt text when the upload fails, saying why', async () => {
    const { actor, ctl, ctx, inserted } = start();
    actor.send({ type: 'image.open', file: png() });
    actor.send({ type: 'image.alt', alt: 'A chart' });
    actor.send({ type: 'image.insert' });
    ctl.fail(
      'uploadImage',
      Object.assign(new Error('Please upload a valid image file'), {
        status: 415,
        codes: { image: 'imageInvalidFile' },
      }),
    );
    await flush();
    expect(ctx()).toMatchObject({ alt: 'A chart', error: 'notImage' });
    expect(ctx().file).not.toBeNull();
    actor.send({ type: 'image.insert' });
    ctl.fail('uploadImage', Object.assign(new Error('offline'), { status: 0 }));
    await flush();
    expect(ctx().error).toBe('offline');
    expect(inserted).toEqual([]);
  });

  it('forgets everything when cancelled, even during the upload', () => {
    const { actor, ctx, state } = start();
    actor.send({ type: 'image.open', file: png() });
    actor.send({ type: 'image.alt', alt: 'A chart' });
    actor.send({ type: 'image.insert' });
    actor.send({ type: 'image.cancel' });
    expect(state()).toBe('closed');
    expect(ctx()).toEqual({ file: null, alt: '', error: null });
  });
});

describe('text image paths', () => {
  const events = [
    { type: 'image.open' },
    { type: 'image.open', file: png(10, 'image/svg+xml') },
    { type: 'image.file', file: png() },
    { type: 'image.alt', alt: 'A chart' },
    { type: 'image.insert' },
    { type: 'image.cancel' },
    { type: doneEvent('uploadImage'), output: stored },
    { type: errorEvent('uploadImage'), error: Object.assign(new Error('down'), { status: 500 }) },
  ];
  const model = createPathModel(textImageMachine, {
    events: events as never,
    serializeState: (snapshot: {
      value: unknown;
      context: { file: File | null; alt: string; error: string | null };
    }) =>
      JSON.stringify([
        snapshot.value,
        snapshot.context.file?.type ?? null,
        snapshot.context.alt,
        snapshot.context.error,
      ]),
  } as never);
  const walk = everyTransition(model, 'text-image.machine', events);

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThanOrEqual(8);
  });

  for (const path of walk.paths) {
    it(`nothing is uploaded without an image file and alt text: ${path.description}`, async () => {
      const { actor, ctl, ctx } = start();
      const send = ({ event }: { event: unknown }) => actor.send(event as TextImageEvent);
      const settle =
        (ok: boolean) =>
        async ({ event }: { event: unknown }) => {
          const e = event as { output?: unknown; error?: unknown };
          if (ok) ctl.settle('uploadImage', e.output);
          else ctl.fail('uploadImage', e.error);
          await flush();
        };
      await path.test({
        events: {
          'image.open': send,
          'image.file': send,
          'image.alt': send,
          'image.insert': send,
          'image.cancel': send,
          [doneEvent('uploadImage')]: settle(true),
          [errorEvent('uploadImage')]: settle(false),
        },
        states: {
          uploading: () => {
            expect(ctx().file?.type).toBe('image/png');
            expect(ctx().alt.trim()).not.toBe('');
          },
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    });
  }
});
