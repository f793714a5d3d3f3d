import { StrictMode, useEffect, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';

/** Marks the root once React owns the page, so tests and tools can wait for interactivity. */
function HydrationMark() {
  useEffect(() => {
    const root = document.getElementById('root');
    if (root) root.dataset.hydrated = 'true';
  }, []);
  return null;
}

/** Providers shared by the browser and the server render, so both trees match. */
export function AppProviders({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        {children}
        <HydrationMark />
      </I18nextProvider>
    </StrictMode>
  );
}
