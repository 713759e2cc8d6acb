import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { type AdminOverlayOptions, App } from './app';
import styles from './styles/admin-overlay.css?inline';

export type { AdminOverlayOptions };

/**
 * Mounts the admin overlay into `host` (the site calls this when Admin is clicked) and returns
 * the function that unmounts it. The overlay lives in a shadow root, so the site's styles and the
 * overlay's do not meet.
 */
export function mountAdminOverlay(host: HTMLElement, options: AdminOverlayOptions): () => void {
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = styles;
  const container = document.createElement('div');
  shadow.replaceChildren(style, container);

  // The page under the overlay must not scroll along.
  const html = document.documentElement;
  const previousOverflow = html.style.overflow;
  html.style.overflow = 'hidden';

  const root = createRoot(container);
  root.render(
    <StrictMode>
      <App resetToken={options.resetToken} onClose={options.onClose} />
    </StrictMode>,
  );

  let mounted = true;
  return () => {
    if (!mounted) return;
    mounted = false;
    root.unmount();
    shadow.replaceChildren();
    html.style.overflow = previousOverflow;
  };
}
