import { useState } from 'react';

import { LayerContext, Modal } from './components/modal';
import { Toaster } from './components/toaster';
import { PublishingProvider } from './hooks/use-publishing';
import { SessionProvider, useSession } from './hooks/use-session';
import { ToastProvider } from './hooks/use-toast';
import { I18nProvider, useI18n } from './i18n/i18n';
import type { Message } from './i18n/message';
import { ContentManagement } from './screens/dashboard/content-management';
import { LoginModal } from './screens/login/login-modal';
import { ForgotPasswordModal } from './screens/password/forgot-password-modal';
import { ResetPasswordModal } from './screens/password/reset-password-modal';

export interface AdminOverlayOptions {
  /** From the page's #reset-password=<token>: open the reset-password screen. */
  resetToken?: string;
  /** Esc or the close button: the site unmounts the overlay and puts focus back on its Admin button. */
  onClose: () => void;
}

export function App({ resetToken, onClose }: AdminOverlayOptions) {
  return (
    <I18nProvider>
      <ToastProvider>
        <SessionProvider>
          <Overlay resetToken={resetToken} onClose={onClose} />
        </SessionProvider>
      </ToastProvider>
    </I18nProvider>
  );
}

type AuthScreen = 'login' | 'forgot' | 'reset';

function Overlay({ resetToken, onClose }: AdminOverlayOptions) {
  const { t, lang, dir } = useI18n();
  const session = useSession();
  const [screen, setScreen] = useState<AuthScreen>(resetToken !== undefined ? 'reset' : 'login');
  const [notice, setNotice] = useState<Message | null>(null);
  const [layer, setLayer] = useState<HTMLDivElement | null>(null);

  let content;
  if (screen === 'reset') {
    content = (
      <ResetPasswordModal
        token={resetToken ?? ''}
        onClose={onClose}
        onRequestNewLink={() => setScreen('forgot')}
        onDone={(message) => {
          // The reset ended that admin's sessions; whoever is signed in here signs in again.
          session.expire();
          setNotice(message);
          setScreen('login');
        }}
      />
    );
  } else if (session.isLoading) {
    content = (
      <Modal title={t('login.title')} onClose={onClose} size="small">
        <p role="status" className="ao-loading">
          {t('common.loading')}
        </p>
      </Modal>
    );
  } else if (session.isAuthenticated) {
    content = (
      <PublishingProvider>
        <ContentManagement onClose={onClose} />
      </PublishingProvider>
    );
  } else if (screen === 'forgot') {
    content = <ForgotPasswordModal onClose={onClose} onBack={() => setScreen('login')} />;
  } else {
    content = <LoginModal onClose={onClose} onForgotPassword={() => setScreen('forgot')} notice={notice} />;
  }

  return (
    <div className="ao-root" lang={lang} dir={dir}>
      <div ref={setLayer} className="ao-layer" />
      {layer && <LayerContext.Provider value={layer}>{content}</LayerContext.Provider>}
      <Toaster />
    </div>
  );
}
