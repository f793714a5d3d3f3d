import type { i18n as I18n } from 'i18next';
import { showToast } from '../../components/toasts';
import { isOnline } from '../../offline/online-status';

/**
 * Admin edits are never queued (they need a signed-in session and may conflict): when a save
 * fails for want of a connection, the dialog stays open with everything typed and this says that
 * saving will be possible when back online. Answers whether it handled the error (call it first
 * in a screen's save-failure action).
 */
export function notifyIfOffline(error: unknown, i18n: I18n): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (status !== 0 && isOnline()) return false;
  void i18n
    .loadNamespaces('offline')
    .then(() => showToast('error', { message: i18n.t('offline:adminOffline'), duration: 6000 }));
  return true;
}
