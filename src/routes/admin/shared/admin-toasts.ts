import type { i18n as I18n } from 'i18next';
import { isSessionEnded } from '../../../api/client';
import { showToast } from '../../../components/toasts';
import { isOnline } from '../../../offline/online-status';
import { messageOf } from './admin-context';

/**
 * Changes other than an opening's or a post's form (a status, a flag, users and roles) are not
 * kept in the send queue: when one fails for want of a connection, the screen keeps it and this
 * says that saving will be possible when back online. Answers whether it handled the error (call
 * it first in a screen's save-failure action). The job and blog dialogs keep a save made offline
 * in the send queue instead (docs/decisions/022).
 */
export function notifyIfOffline(error: unknown, i18n: I18n): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (status !== 0 && isOnline()) return false;
  toastOffline(i18n, 'error', 'adminOffline', 6000);
  return true;
}

/** A toast in the `offline` texts (loaded when there is something to say, not with the screen). */
export function toastOffline(i18n: I18n, kind: 'info' | 'error', key: string, duration?: number): void {
  void i18n
    .loadNamespaces('offline')
    .then(() =>
      showToast(kind, { message: i18n.t(`offline:${key}`), ...(duration !== undefined && { duration }) }),
    );
}

export interface FailureToast {
  /** The text when the server gave no words of its own (always, with `serverWords: false`). */
  message: string;
  title?: string;
  duration?: number;
  /** Show the server's own message when it sent one (default true). */
  serverWords?: boolean;
  /** A save: a failure for want of a connection says that saving waits for it (`notifyIfOffline`). */
  offline?: I18n;
  /** A line for the developer's console, with the error. */
  log?: string;
}

/**
 * How every back-office effect says that something failed: a red toast, quiet when the session
 * has ended (the transport reported it once and the back office asks to sign in again over the
 * screen, admin-app.tsx).
 */
export function toastFailure(error: unknown, toast: FailureToast): void {
  if (isSessionEnded(error)) return;
  if (toast.offline && notifyIfOffline(error, toast.offline)) return;
  if (toast.log) console.error(toast.log, error);
  showToast('error', {
    ...(toast.title !== undefined && { title: toast.title }),
    message: toast.serverWords === false ? toast.message : messageOf(error, toast.message),
    ...(toast.duration !== undefined && { duration: toast.duration }),
  });
}

/**
 * A save that met someone else's change to other fields and was saved together with it
 * (docs/decisions/022), or a flag that lost a race and shows the record as it is now.
 */
export function toastTheirs(i18n: I18n, changedBy: string | null, kind: 'merged' | 'overtaken'): void {
  const name = changedBy ?? i18n.t('common:conflict.someone');
  showToast('info', {
    title: i18n.t(kind === 'merged' ? 'common:conflict.mergedTitle' : 'common:conflict.overtakenTitle'),
    message: i18n.t(kind === 'merged' ? 'common:conflict.merged' : 'common:conflict.overtaken', { name }),
  });
}
