import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { NoticePrefs } from '../../contract/mail';
import { VersionConflict } from '../../contract/versions';
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
    const save = vi.fn(async () => ({ applications: 'digest', messages: null, version: 4 }) as NoticePrefs);
    const { actor, saved } = start(async () => ({ applications: 'each', messages: null, version: 3 }), save);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'choice.change', kind: 'messages', choice: 'off' });
    expect(actor.getSnapshot().context.draft).toEqual({ applications: 'each', messages: null, version: 3 });
    actor.send({ type: 'choice.change', kind: 'applications', choice: 'digest' });
    actor.send({ type: 'prefs.save' });
    await waitFor(actor, (s) => s.matches('ready') && saved.mock.calls.length === 1);
    // based on the version the screen shows
    expect(save).toHaveBeenCalledWith({ applications: 'digest', version: 3 });
    expect(actor.getSnapshot().context.saved).toEqual({ applications: 'digest', messages: null, version: 4 });
  });

  it('changed meanwhile in another tab: shows the choices as they are now and says who, saving nothing over them', async () => {
    const overtaken = vi.fn();
    const actor = createActor(
      noticePrefsMachine.provide({
        actors: {
          loadPrefs: fromPromise(
            async () => ({ applications: 'each', messages: 'each', version: 1 }) as NoticePrefs,
          ),
          savePrefs: fromPromise(async (): Promise<NoticePrefs> => {
            throw new VersionConflict<NoticePrefs>({
              current: { applications: 'off', messages: 'each', version: 2 },
              changedBy: 'me@example.com',
              changedAt: null,
            });
          }),
        },
        actions: { notifyOvertaken: (_, { changedBy }) => overtaken(changedBy) },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'choice.change', kind: 'applications', choice: 'digest' });
    actor.send({ type: 'prefs.save' });
    await waitFor(actor, (s) => s.matches('ready') && overtaken.mock.calls.length === 1);
    expect(overtaken).toHaveBeenCalledWith('me@example.com');
    expect(actor.getSnapshot().context).toMatchObject({
      saved: { applications: 'off', version: 2 },
      draft: { applications: 'off' },
    });
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
