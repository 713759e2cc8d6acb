import { createContext, type ReactNode, useContext, useId, useLayoutEffect, useRef } from 'react';
import { createPortal } from 'react-dom';

import { useI18n } from '../i18n/i18n';
import { Tooltip } from './tooltip';

/** Where dialogs are rendered: the overlay's own layer (inside its shadow root), or the body. */
export const LayerContext = createContext<HTMLElement | null>(null);

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Open dialogs, innermost last: only the innermost one handles keys, and it gets focus back. */
const openDialogs: HTMLElement[] = [];

export function focusableIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => !element.closest('[hidden], [inert]') && (element.checkVisibility?.() ?? true),
  );
}

function activeElementOf(node: Node): Element | null {
  const root = node.getRootNode() as Document | ShadowRoot;
  return root.activeElement;
}

function trapTab(dialog: HTMLElement, event: KeyboardEvent) {
  const focusable = focusableIn(dialog);
  const active = activeElementOf(dialog);
  if (!focusable.length) {
    event.preventDefault();
    dialog.focus();
    return;
  }
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  const inside = active instanceof Node && dialog.contains(active);
  if (!inside) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  } else if (event.shiftKey && (active === first || active === dialog)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

interface ModalProps {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  size?: 'small' | 'medium' | 'large' | 'full';
  /** Shown in the header beside the title (e.g. the publishing state). */
  headerExtra?: ReactNode;
  /** The close button's label; 'Close' by default. */
  closeLabel?: string;
}

/**
 * A modal dialog: focus moves in and is trapped there, Esc closes, focus returns to where it was.
 */
export function Modal({ title, onClose, children, size = 'medium', headerExtra, closeLabel }: ModalProps) {
  const { t } = useI18n();
  const layer = useContext(LayerContext);
  const dialogRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  // A layout effect, not a passive one: focus moves (and Esc and Tab are caught) in the same commit
  // that shows the dialog. A passive effect runs in a later task when React yields after a long
  // render (a slow device, a big screen such as Content Management), so the dialog could be on
  // screen with focus still on the page behind it, and early keys went there.
  useLayoutEffect(() => {
    const dialog = dialogRef.current!;
    const previous = activeElementOf(dialog) as HTMLElement | null;
    openDialogs.push(dialog);
    const first = bodyRef.current?.querySelector<HTMLElement>('[data-autofocus]') ?? focusableIn(bodyRef.current!)[0] ?? dialog;
    first.focus();

    // On the document, not the dialog: when the focused button disappears (e.g. 'Mark as Read'),
    // focus falls to <body> and keys must still be caught.
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (openDialogs.at(-1) !== dialog || event.defaultPrevented) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        onCloseRef.current();
      } else if (event.key === 'Tab') {
        trapTab(dialog, event);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      openDialogs.splice(openDialogs.indexOf(dialog), 1);
      if (previous?.isConnected && previous !== document.body) previous.focus();
      else openDialogs.at(-1)?.focus();
    };
  }, []);

  return createPortal(
    <div className="ao-backdrop" data-size={size}>
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`ao-dialog ao-dialog-${size}`}
      >
        <div className="ao-dialog-header">
          <h2 id={titleId} className="ao-dialog-title">
            {title}
          </h2>
          {headerExtra}
          <Tooltip label={closeLabel ?? t('common.close')}>
            {(trigger) => (
              <button type="button" className="ao-icon-button" {...trigger} onClick={onClose}>
                <span aria-hidden="true">×</span>
              </button>
            )}
          </Tooltip>
        </div>
        <div ref={bodyRef} className="ao-dialog-body">
          {children}
        </div>
      </div>
    </div>,
    layer ?? document.body,
  );
}
