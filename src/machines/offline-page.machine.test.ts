import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { DeviceCopies } from '../offline/device-copies';
import { offlinePageMachine } from './offline-page.machine';

describe('the offline page', () => {
  it('adds the pages this device kept and the submissions waiting, once read', async () => {
    const copies: DeviceCopies = { pages: [{ path: '/blog/first-post', title: 'First post' }], waiting: 2 };
    const actor = createActor(
      offlinePageMachine.provide({ actors: { loadDeviceCopies: fromPromise(async () => copies) } }),
    ).start();
    // Arrange/Act: the prerendered page shows the fixed list only
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.pages).toEqual([]);
    await waitFor(actor, (s) => s.matches('ready'));
    // Assert
    expect(actor.getSnapshot().context).toEqual(copies);
  });

  it('keeps the fixed list when this browser has no caches to read', async () => {
    const actor = createActor(
      offlinePageMachine.provide({
        actors: {
          loadDeviceCopies: fromPromise<DeviceCopies>(async () => {
            throw new Error('caches is not defined');
          }),
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('unavailable'));
    expect(actor.getSnapshot().context).toEqual({ pages: [], waiting: 0 });
  });
});
