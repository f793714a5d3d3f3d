import { fromPromise } from 'xstate';
import { fetchMe, login, logout } from '../../api/auth';
import { authMachine } from '../../machines/auth.machine';

/**
 * The back office's session with its live effects: who is signed in, sign-in and sign-out on the
 * server. Another user signing in over an ended session reloads the back office: the screens open
 * were the other user's.
 */
export const authLive = () =>
  authMachine.provide({
    actors: {
      fetchMe: fromPromise(() => fetchMe()),
      login: fromPromise(({ input }) => login(input)),
      logout: fromPromise<unknown>(() => logout()),
    },
    actions: { userSwitched: () => window.location.assign('/admin') },
  });
