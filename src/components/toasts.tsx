import type { ToastOptions } from 'react-hot-toast';

/**
 * Toasts load on first use (react-hot-toast is not in the first-paint bundle). Defaults follow
 * Success 2 s, error 4 s, loading until dismissed, others 4 s, at most 20 shown.
 * Position top right. Screens call these through their machines' actions.
 */
type Kind = 'success' | 'error' | 'info';
let ready: Promise<typeof import('react-hot-toast')> | null = null;

function load() {
  if (!ready) {
    ready = Promise.all([import('react-hot-toast'), import('react-dom/client')]).then(([mod, dom]) => {
      const host = document.createElement('div');
      host.id = 'toasts';
      document.body.appendChild(host);
      const { Toaster } = mod;
      dom.createRoot(host).render(
        <Toaster
          position="top-right"
          toastOptions={{
            style: { maxWidth: '26rem' },
            success: {
              style: { background: '#15803d', color: '#fff' },
              iconTheme: { primary: '#fff', secondary: '#15803d' },
            },
            error: {
              style: { background: '#b91c1c', color: '#fff' },
              iconTheme: { primary: '#fff', secondary: '#b91c1c' },
            },
          }}
        />,
      );
      return mod;
    });
    // not loaded (offline before the first toast): the next toast tries again
    ready.catch(() => (ready = null));
  }
  return ready;
}

/**
 * Loads the toasts ahead of the first one, while online: the back office calls it at start, so
 * "You're offline..." can still be shown after the connection is gone.
 */
export function preloadToasts(): void {
  load().catch((error: unknown) => console.warn('Toasts could not be loaded', error));
}

export interface ToastInput {
  title?: string;
  message: string;
  /** Milliseconds; defaults per kind. */
  duration?: number;
}

export function showToast(kind: Kind, { title, message, duration }: ToastInput): void {
  load().then(
    ({ default: toast }) => {
      const text = title ? `${title}: ${message}` : message;
      const opts: ToastOptions = duration ? { duration } : {};
      if (kind === 'success') toast.success(text, opts);
      else if (kind === 'error') toast.error(text, opts);
      else toast(text, opts);
    },
    (error: unknown) => console.warn('A toast could not be shown:', message, error),
  );
}
