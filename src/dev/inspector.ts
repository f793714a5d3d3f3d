import { createBrowserInspector } from '@statelyai/inspect';
import { setInspect } from './inspect-registry';
import { sanitizeContext, sanitizeEvent } from './sanitize';

/**
 * Development builds only (main.tsx loads this with `?inspect` in the address): opens the Stately
 * inspector and connects every machine the page starts to it, through the @xstate/react wrapper
 * that vite.config.ts puts in place in development mode (xstate-react-inspected.ts). People's
 * personal data is replaced before anything is sent (sanitize.ts).
 */
export function startInspector(): void {
  const inspector = createBrowserInspector({
    sanitizeContext: sanitizeContext as (c: Record<string, unknown>) => Record<string, unknown>,
    sanitizeEvent,
  });
  setInspect(inspector.inspect);
  console.info('[inspect] Stately inspector connected; personal data is redacted');
}
