import { fromPromise } from 'xstate';
import type { i18n as I18n } from 'i18next';
import { fetchMe, login, logout, signInWithPasskey, verifySecondStep } from '../../api/auth';
import { leaveAllPresence } from '../../api/presence';
import { showToast } from '../../components/toasts';
import { authMachine } from '../../machines/auth.machine';
import { removeDraftsOf } from '../../offline/drafts';
import { forgetInsights } from '../../offline/kept-insights';
import { countOutboxOf, removeOutboxOf } from '../../offline/send-queue';
import { lastScreenKey } from './shared/admin-links';

/**
 * What this device keeps of a user who signs out: their drafts (IndexedDB), last screen, the
 * Insights figures kept for offline use, and the
 * changes they made offline that wait to be sent (they were asked first: auth.machine.ts). The
 * modules are part of the back office's own chunk: a sign-out without a connection must not need
 * to fetch one. Each part goes on its own, whatever another does.
 */
async function forgetOnDevice(userId: number) {
  try {
    localStorage.removeItem(lastScreenKey(userId));
  } catch {
    // storage off: nothing was kept
  }
  const failed = (
    await Promise.allSettled([removeDraftsOf(userId), removeOutboxOf(userId), forgetInsights()])
  ).filter((r) => r.status === 'rejected');
  if (failed.length) console.warn('Signing out could not clear this device:', failed);
}

/** How many changes of the user wait in this device's send queue (none when it cannot be read). */
const countWaiting = (userId: number): Promise<number> => countOutboxOf(userId).catch(() => 0);

/**
 * The back office's session with its live effects: who is signed in, sign-in and sign-out on the
 * server. Another user signing in over an ended session reloads the back office: the screens open
 * were the other user's. Signing out removes the user's drafts, last screen and waiting changes
 * from the device (a session that merely ended keeps them for the same user).
 */
export const authLive = (i18n: I18n) =>
  authMachine.provide({
    actors: {
      fetchMe: fromPromise(() => fetchMe()),
      login: fromPromise(({ input }) => login(input)),
      verifyCode: fromPromise(({ input }) => verifySecondStep(input.code)),
      passkey: fromPromise(() => signInWithPasskey()),
      // open editors say goodbye first: colleagues do not see someone who has gone
      logout: fromPromise<unknown>(async () => {
        await leaveAllPresence();
        return logout();
      }),
      countWaiting: fromPromise(({ input }) => countWaiting(input.userId)),
    },
    actions: {
      userSwitched: () => window.location.assign('/admin'),
      forgetOnDevice: (_, { userId }) => void forgetOnDevice(userId),
      // a recovery code was used up: say how many are left, so nobody runs out unawares
      notifyRecoveryLeft: (_, { left }) => {
        if (left === undefined) return;
        showToast(left > 2 ? 'success' : 'error', {
          title: i18n.t('admin:secondStep.recoveryUsedTitle'),
          message: i18n.t('admin:secondStep.recoveryLeft', { count: left }),
        });
      },
    },
  });
