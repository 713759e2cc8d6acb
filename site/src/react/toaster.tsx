import { TOAST_DURATION_MS, TOAST_HOTKEY, TOAST_SWIPE_THRESHOLD_PX } from '@portfolio/contract/toasts';
import { useEffect, useRef, useState } from 'react';

import { dismiss, subscribe, type Toast } from './toast-store';

function ToastItem({ toast, dismissLabel }: { toast: Toast; dismissLabel: string }) {
  const [dx, setDx] = useState(0);
  const start = useRef<number | null>(null);
  // As in the overlay: a toast the pointer or focus rests on stays until it leaves (time to read it).
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (!toast.open || paused) return;
    const timer = setTimeout(() => dismiss(toast.id), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast.id, toast.open, paused]);

  if (!toast.open) return null;
  return (
    <li
      className={`toast ${toast.variant === 'destructive' ? 'toast-destructive' : ''}`}
      style={{ transform: `translateX(${Math.max(0, dx)}px)`, opacity: dx > 0 ? Math.max(0.2, 1 - dx / 200) : 1 }}
      onPointerDown={(e) => {
        start.current = e.clientX;
        (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
      }}
      onPointerMove={(e) => start.current !== null && setDx(e.clientX - start.current)}
      onPointerUp={() => {
        if (dx >= TOAST_SWIPE_THRESHOLD_PX) dismiss(toast.id);
        start.current = null;
        setDx(0);
      }}
      onPointerCancel={() => {
        start.current = null;
        setDx(0);
      }}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div role={toast.variant === 'destructive' ? 'alert' : undefined}>
        <p className="toast-title">{toast.title}</p>
        {toast.description && <p className="toast-description">{toast.description}</p>}
      </div>
      <button type="button" className="toast-close" aria-label={dismissLabel} onClick={() => dismiss(toast.id)}>
        ✕
      </button>
    </li>
  );
}

/** The notification region: F8 (TOAST_HOTKEY) moves focus to it (spec §9). */
export function Toaster({ regionLabel, dismissLabel }: { regionLabel: string; dismissLabel: string }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const region = useRef<HTMLElement>(null);
  useEffect(() => subscribe(setToasts), []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === TOAST_HOTKEY) {
        event.preventDefault();
        region.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <section ref={region} className="toast-region" aria-label={regionLabel} tabIndex={-1}>
      {/* The live region is the list, always in the page, so a toast added to it is announced; an
          error is an alert (announced at once) inside its plain list item (axe: list). */}
      <ol aria-live="polite">
        {toasts
          .filter((t) => t.variant !== 'destructive')
          .map((t) => (
            <ToastItem key={t.id} toast={t} dismissLabel={dismissLabel} />
          ))}
      </ol>
      <ol>
        {toasts
          .filter((t) => t.variant === 'destructive')
          .map((t) => (
            <ToastItem key={t.id} toast={t} dismissLabel={dismissLabel} />
          ))}
      </ol>
    </section>
  );
}
