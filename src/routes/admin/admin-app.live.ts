import { fromPromise } from 'xstate';
import { fetchMe, login, logout } from '../../api/auth';
import { authMachine } from '../../machines/auth.machine';
import { lastScreenKey } from './admin-links';

/**
 * What this device keeps of a user who signs out: their drafts (IndexedDB), last screen, and the
 * changes they made offline that wait to be sent (they were asked first: auth.machine.ts).
 */
async function forgetOnDevice(userId: number) {
  try {
    localStorage.removeItem(lastScreenKey(userId));
  } catch {
    // storage off: nothing was kept
  }
  const [{ removeDraftsOf }, { removeOutboxOf }] = await Promise.all([
    import('../../offline/drafts'),
    import('../../offline/send-queue'),
  ]);
  await Promise.all([removeDraftsOf(userId), removeOutboxOf(userId).catch(() => undefined)]);
}

/** How many changes of the user wait in this device's send queue (none when it cannot be read). */
async function countWaiting(userId: number): Promise<number> {
  const { countOutboxOf } = await import('../../offline/send-queue');
  return countOutboxOf(userId).catch(() => 0);
}

/**
 * The back office's session with its live effects: who is signed in, sign-in and sign-out on the
 * server. Another user signing in over an ended session reloads the back office: the screens open
 * were the other user's. Signing out removes the user's drafts, last screen and waiting changes
 * from the device (a session that merely ended keeps them for the same user).
 */
export const authLive = () =>
  authMachine.provide({
    actors: {
      fetchMe: fromPromise(() => fetchMe()),
      login: fromPromise(({ input }) => login(input)),
      logout: fromPromise<unknown>(() => logout()),
      countWaiting: fromPromise(({ input }) => countWaiting(input.userId)),
    },
    actions: {
      userSwitched: () => window.location.assign('/admin'),
      forgetOnDevice: (_, { userId }) => void forgetOnDevice(userId),
    },
  });
