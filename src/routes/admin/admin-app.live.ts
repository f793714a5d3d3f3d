import { fromPromise } from 'xstate';
import { fetchMe, login, logout } from '../../api/auth';
import { authMachine } from '../../machines/auth.machine';
import { lastScreenKey } from './admin-links';

/** What this device keeps of a user who signs out: their drafts (IndexedDB) and last screen. */
async function forgetOnDevice(userId: number) {
  try {
    localStorage.removeItem(lastScreenKey(userId));
  } catch {
    // storage off: nothing was kept
  }
  const { removeDraftsOf } = await import('../../offline/drafts');
  await removeDraftsOf(userId);
}

/**
 * The back office's session with its live effects: who is signed in, sign-in and sign-out on the
 * server. Another user signing in over an ended session reloads the back office: the screens open
 * were the other user's. Signing out removes the user's drafts and last screen from the device (a
 * session that merely ended keeps them for the same user).
 */
export const authLive = () =>
  authMachine.provide({
    actors: {
      fetchMe: fromPromise(() => fetchMe()),
      login: fromPromise(({ input }) => login(input)),
      logout: fromPromise<unknown>(() => logout()),
    },
    actions: {
      userSwitched: () => window.location.assign('/admin'),
      forgetOnDevice: (_, { userId }) => void forgetOnDevice(userId),
    },
  });
