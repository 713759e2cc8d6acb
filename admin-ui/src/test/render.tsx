import { render, type RenderOptions } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';

import { Toaster } from '../components/toaster';
import { PublishingProvider } from '../hooks/use-publishing';
import { SessionProvider } from '../hooks/use-session';
import { ToastProvider } from '../hooks/use-toast';
import { I18nProvider } from '../i18n/i18n';

function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nProvider>
      <ToastProvider>
        <SessionProvider>
          <PublishingProvider>
            {children}
            <Toaster />
          </PublishingProvider>
        </SessionProvider>
      </ToastProvider>
    </I18nProvider>
  );
}

/** Renders inside the overlay's providers (language, toasts, session, publishing). */
export function renderWithProviders(ui: ReactElement, options?: Omit<RenderOptions, 'wrapper'>) {
  const user = userEvent.setup();
  return { user, ...render(ui, { wrapper: Providers, ...options }) };
}
