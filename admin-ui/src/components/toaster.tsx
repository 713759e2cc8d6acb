import { TOAST_DURATION_MS, TOAST_HOTKEY, TOAST_SWIPE_THRESHOLD_PX } from '@portfolio/contract/toasts';
import { type PointerEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';

import { type ToastItem, useToast } from '../hooks/use-toast';
import { useI18n } from '../i18n/i18n';
import { Tooltip } from './tooltip';

/** The notification region: F8 (TOAST_HOTKEY) moves focus here, Esc sends it back. */
export function Toaster() {
  const { t } = useI18n();
  const { toasts, dismiss } = useToast();
  const regionRef = useRef<HTMLElement>(null);
  const returnFocusTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== TOAST_HOTKEY && event.code !== TOAST_HOTKEY) return;
      const region = regionRef.current;
      if (!region) return;
      event.preventDefault();
      const root = region.getRootNode() as Document | ShadowRoot;
      returnFocusTo.current = root.activeElement as HTMLElement | null;
      region.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  const open = toasts.filter((item) => item.open);

  // A dialog's actions sit at its foot, where the toast shows: the dialog styles keep clear of the
  // space the toast takes, published on the overlay's root (the region's parent) as --ao-toast-space.
  useLayoutEffect(() => {
    const region = regionRef.current;
    const root = region?.parentElement;
    if (!region || !root) return;
    const update = () => root.style.setProperty('--ao-toast-space', open.length ? `${region.offsetHeight}px` : '0px');
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(update);
    observer.observe(region);
    return () => observer.disconnect();
  }, [open.length]);
  return (
    <section
      ref={regionRef}
      className="ao-toasts"
      aria-label={t('toast.region')}
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented && returnFocusTo.current?.isConnected) {
          event.stopPropagation();
          returnFocusTo.current.focus();
        }
      }}
    >
      {/* The live region is the list, always in the page, so a toast added to it is announced; an
          error is an alert (announced at once) inside its plain list item (axe: list). */}
      <ol aria-live="polite">
        {open
          .filter((item) => item.variant !== 'destructive')
          .map((item) => (
            <Toast key={item.id} item={item} dismiss={dismiss} />
          ))}
      </ol>
      <ol>
        {open
          .filter((item) => item.variant === 'destructive')
          .map((item) => (
            <Toast key={item.id} item={item} dismiss={dismiss} />
          ))}
      </ol>
    </section>
  );
}

function Toast({ item, dismiss }: { item: ToastItem; dismiss: (id: number) => void }) {
  const { t } = useI18n();
  const { id } = item;
  const [paused, setPaused] = useState(false);
  const [offset, setOffset] = useState(0);
  const start = useRef<number | null>(null);

  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(() => dismiss(id), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [paused, dismiss, id]);

  const onPointerDown = (event: PointerEvent<HTMLLIElement>) => {
    if ((event.target as HTMLElement).closest('button, [role="tooltip"]')) return;
    start.current = event.clientX;
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLLIElement>) => {
    if (start.current === null) return;
    setOffset(Math.max(0, event.clientX - start.current));
  };
  const onPointerUp = (event: PointerEvent<HTMLLIElement>) => {
    if (start.current === null) return;
    const moved = event.clientX - start.current;
    start.current = null;
    if (moved > TOAST_SWIPE_THRESHOLD_PX) dismiss(id);
    else setOffset(0);
  };

  return (
    <li
      className={`ao-toast ao-toast-${item.variant ?? 'default'}`}
      style={offset ? { transform: `translateX(${offset}px)`, opacity: Math.max(0.2, 1 - offset / 200) } : undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => {
        start.current = null;
        setOffset(0);
      }}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className="ao-toast-text" role={item.variant === 'destructive' ? 'alert' : undefined}>
        <div className="ao-toast-title">{item.title}</div>
        {item.description && <div className="ao-toast-description">{item.description}</div>}
        {item.detail && (
          <div className="ao-toast-description">
            <bdi>{item.detail}</bdi>
          </div>
        )}
      </div>
      <Tooltip label={t('toast.dismiss')}>
        {(trigger) => (
          <button type="button" className="ao-icon-button ao-toast-close" {...trigger} onClick={() => dismiss(id)}>
            <span aria-hidden="true">×</span>
          </button>
        )}
      </Tooltip>
    </li>
  );
}
