import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { NoticePrefs } from '../api/contract/mail';
import { noticePrefsMachine } from './notice-prefs.machine';

const start = (load: () => Promise<NoticePrefs>, save: (input: unknown) => Promise<NoticePrefs>) => {
  const saved = vi.fn();
  const failed = vi.fn();
  const actor = createActor(
    noticePrefsMachine.provide({
      actors: { loadPrefs: fromPromise(load), savePrefs: fromPromise(({ input }) => save(input)) },
      actions: { notifySaved: saved, notifyFailed: failed },
    }),
  ).start();
  return { actor, saved, failed };
};

describe('email notices', () => {
  it('changes only the kinds the role may read, and saves them', async () => {
    const save = vi.fn(
      async (input: unknown) =>
        ({ applications: 'digest', messages: null, ...(input as object) }) as NoticePrefs,
    );
    const { actor, saved } = start(async () => ({ applications: 'each', messages: null }), save);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'choice.change', kind: 'messages', choice: 'off' });
    expect(actor.getSnapshot().context.draft).toEqual({ applications: 'each', messages: null });
    actor.send({ type: 'choice.change', kind: 'applications', choice: 'digest' });
    actor.send({ type: 'prefs.save' });
    await waitFor(actor, (s) => s.matches('ready') && saved.mock.calls.length === 1);
    expect(save).toHaveBeenCalledWith({ applications: 'digest' });
    expect(actor.getSnapshot().context.saved).toEqual({ applications: 'digest', messages: null });
  });

  it('keeps the choice on a failed save, and retries a failed load', async () => {
    const load = vi
      .fn()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce({ applications: 'each', messages: 'each' });
    const { actor, failed } = start(load, async () => {
      throw new Error('down');
    });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'list.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'choice.change', kind: 'messages', choice: 'off' });
    actor.send({ type: 'prefs.save' });
    await waitFor(actor, (s) => s.matches('ready') && failed.mock.calls.length === 1);
    expect(actor.getSnapshot().context.draft.messages).toBe('off');
  });
});
