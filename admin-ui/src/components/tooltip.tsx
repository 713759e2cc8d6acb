import { TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '@portfolio/contract';
import {
  createContext,
  type FocusEvent,
  type PointerEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';

/** Space between the control and its tooltip, bridged by the tooltip's ::before so the pointer can cross it. */
const GAP_PX = 6;
/** The tooltip keeps this far from the window's edges. */
const EDGE_PX = 8;

/**
 * What all tooltips share (as Radix's TooltipProvider): one open at a time, and after one closes
 * the next opens at once for TOOLTIP_SKIP_DELAY_MS, so moving along a row of icons does not wait.
 */
export class TooltipGroup {
  private delayed = true;
  private skipTimer: ReturnType<typeof setTimeout> | undefined;
  private closeOpen: (() => void) | null = null;

  get opensAtOnce(): boolean {
    return !this.delayed;
  }

  opened(close: () => void) {
    if (this.closeOpen && this.closeOpen !== close) this.closeOpen();
    clearTimeout(this.skipTimer);
    this.delayed = false;
    this.closeOpen = close;
  }

  closed(close: () => void) {
    if (this.closeOpen !== close) return;
    this.closeOpen = null;
    clearTimeout(this.skipTimer);
    this.skipTimer = setTimeout(() => (this.delayed = true), TOOLTIP_SKIP_DELAY_MS);
  }
}

export const TooltipGroupContext = createContext(new TooltipGroup());

export interface TooltipTriggerProps {
  ref: RefObject<HTMLButtonElement | null>;
  'aria-labelledby': string;
  onPointerEnter: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave: (event: PointerEvent<HTMLElement>) => void;
  onPointerDown: () => void;
  onFocus: (event: FocusEvent<HTMLElement>) => void;
  onBlur: () => void;
}

function focusVisible(element: Element): boolean {
  try {
    return element.matches(':focus-visible');
  } catch {
    return true;
  }
}

/** Puts the tooltip above its control (below when there is no room), centred, inside the window. */
function place(trigger: HTMLElement, tip: HTMLElement) {
  const anchor = trigger.getBoundingClientRect();
  const { width, height } = tip.getBoundingClientRect();
  const above = anchor.top - GAP_PX - height >= EDGE_PX;
  const top = above ? anchor.top - GAP_PX - height : anchor.bottom + GAP_PX;
  const centred = anchor.left + anchor.width / 2 - width / 2;
  const left = Math.max(EDGE_PX, Math.min(centred, window.innerWidth - EDGE_PX - width));
  tip.dataset.side = above ? 'top' : 'bottom';
  tip.style.top = `${Math.round(top)}px`;
  tip.style.left = `${Math.round(left)}px`;
}

/** While the tooltip shows: placed again on scroll and resize, and Esc closes it. */
function useWhileOpen(open: boolean, triggerRef: RefObject<HTMLElement | null>, tipRef: RefObject<HTMLElement | null>, close: () => void) {
  useLayoutEffect(() => {
    if (!open) return;
    const trigger = triggerRef.current;
    const tip = tipRef.current;
    if (!trigger || !tip) return;
    const replace = () => place(trigger, tip);
    replace();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      // Before the dialog's own Esc handler (which skips a prevented event): this Esc closes only the tooltip.
      event.preventDefault();
      close();
    };
    // Scroll events stay inside the overlay's shadow root, so listen there.
    const root = trigger.getRootNode() as Document | ShadowRoot;
    document.addEventListener('keydown', onKeyDown, true);
    root.addEventListener('scroll', replace, true);
    window.addEventListener('resize', replace);
    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      root.removeEventListener('scroll', replace, true);
      window.removeEventListener('resize', replace);
    };
  }, [open, close, triggerRef, tipRef]);
}

/**
 * The tooltip of an icon-only control (specification §9: 700 ms open delay, 300 ms skip delay).
 * Its text is the control's accessible name (aria-labelledby), so it is always in the DOM and only
 * shown while wanted. Hover opens it after the delay; keyboard focus opens it at once (as Radix
 * does); Esc hides it without moving focus or pointer; the pointer can move onto it (WCAG 1.4.13).
 */
export function Tooltip({ label, children }: { label: string; children: (trigger: TooltipTriggerProps) => ReactNode }) {
  const group = useContext(TooltipGroupContext);
  const id = useId();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const tipRef = useRef<HTMLSpanElement>(null);
  const openTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [open, setOpen] = useState(false);

  const close = useCallback(() => {
    clearTimeout(openTimer.current);
    setOpen(false);
  }, []);

  const show = useCallback(() => {
    clearTimeout(openTimer.current);
    setOpen(true);
  }, []);

  // The group learns of every opening and closing, whatever caused it.
  useEffect(() => {
    if (!open) return;
    group.opened(close);
    return () => group.closed(close);
  }, [open, group, close]);

  useEffect(() => () => clearTimeout(openTimer.current), []);

  useWhileOpen(open, triggerRef, tipRef, close);

  const leftFor = (event: PointerEvent<HTMLElement>, other: HTMLElement | null) => {
    const to = event.relatedTarget;
    if (to instanceof Node && other?.contains(to)) return;
    close();
  };

  const trigger: TooltipTriggerProps = {
    ref: triggerRef,
    'aria-labelledby': id,
    onPointerEnter: (event) => {
      // Touch has no hover; a tap is a press, not a request for a hint.
      if (event.pointerType === 'touch') return;
      clearTimeout(openTimer.current);
      if (group.opensAtOnce) show();
      else openTimer.current = setTimeout(show, TOOLTIP_OPEN_DELAY_MS);
    },
    onPointerLeave: (event) => leftFor(event, tipRef.current),
    onPointerDown: close,
    // A click focuses the control too; only focus the user can see (the keyboard's) opens the tooltip.
    onFocus: (event) => {
      if (focusVisible(event.currentTarget)) show();
    },
    onBlur: close,
  };

  return (
    <>
      {children(trigger)}
      <span
        ref={tipRef}
        id={id}
        role="tooltip"
        className="ao-tooltip"
        hidden={!open}
        onPointerLeave={(event) => leftFor(event, triggerRef.current)}
      >
        {label}
      </span>
    </>
  );
}
