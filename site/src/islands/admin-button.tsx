import type { Lang } from '@portfolio/contract/languages';
import { useCallback, useEffect, useRef } from 'react';

import { Both, ofKey } from '../react/both';

type Strings = Record<Lang, Record<'nav.admin', string>>;

interface OverlayModule {
  mountAdminOverlay(host: HTMLElement, options: { resetToken?: string; onClose: () => void }): () => void;
}

const RESET_HASH = /^#reset-password=([A-Za-z0-9_-]+)$/;

/**
 * Loads the admin overlay only when asked (a click, or a password-reset link), so visitors
 * never download admin code.
 */
export default function AdminButton({ strings }: { strings: Strings }) {
  const button = useRef<HTMLButtonElement>(null);
  const unmount = useRef<(() => void) | null>(null);

  const open = useCallback(async (resetToken?: string) => {
    if (unmount.current) return;
    const host = document.createElement('div');
    host.id = 'admin-overlay-root';
    document.body.append(host);
    const close = () => {
      unmount.current?.();
      unmount.current = null;
      host.remove();
      button.current?.focus();
    };
    try {
      const url = '/admin-ui/admin-overlay.js';
      const overlay = (await import(/* @vite-ignore */ url)) as OverlayModule;
      unmount.current = overlay.mountAdminOverlay(host, { resetToken, onClose: close });
    } catch (error) {
      host.remove();
      console.error('The admin panel could not be loaded', error);
    }
  }, []);

  useEffect(() => {
    const match = location.hash.match(RESET_HASH);
    if (match) {
      history.replaceState(null, '', location.pathname + location.search);
      void open(match[1]);
    }
  }, [open]);

  return (
    <button ref={button} type="button" className="admin-button" onClick={() => void open()} data-admin-button>
      <Both text={ofKey(strings, 'nav.admin')} />
    </button>
  );
}
