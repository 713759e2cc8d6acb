import { TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '@portfolio/contract/tooltip';

const TRIGGER = '[data-tooltip-trigger]';

/**
 * Tooltips of the icon-only controls (specification §9): a control marked `data-tooltip-trigger`
 * holds its name in a `.tooltip` (role tooltip, both languages), shown after 700 ms of hover or of
 * keyboard focus, and at once while another is open or within 300 ms of one closing (Radix
 * Tooltip's delayDuration and skipDelayDuration). Escape, a press or leaving closes it; the pointer
 * can move onto it (WCAG 1.4.13). Delegated from the document: markup that islands render later
 * (the header's search box) needs nothing more.
 */
export function initTooltips() {
  let open: HTMLElement | null = null;
  let timer = 0;
  let closedAt = -Infinity;
  const triggerOf = (node: EventTarget | null) => (node instanceof Element ? node.closest<HTMLElement>(TRIGGER) : null);

  const close = () => {
    window.clearTimeout(timer);
    if (!open) return;
    open.removeAttribute('data-tooltip-open');
    open = null;
    closedAt = performance.now();
  };
  const show = (trigger: HTMLElement) => {
    close();
    trigger.setAttribute('data-tooltip-open', '');
    open = trigger;
  };
  const schedule = (trigger: HTMLElement) => {
    window.clearTimeout(timer);
    if (open === trigger) return;
    if (open || performance.now() - closedAt < TOOLTIP_SKIP_DELAY_MS) show(trigger);
    else timer = window.setTimeout(() => show(trigger), TOOLTIP_OPEN_DELAY_MS);
  };
  const leave = (trigger: HTMLElement) => {
    window.clearTimeout(timer);
    if (open === trigger) close();
  };

  document.addEventListener('pointerover', (e) => {
    const trigger = triggerOf(e.target);
    // A tap is not a hover: a phone shows no tooltip over what it just opened.
    if (trigger && e.pointerType !== 'touch') schedule(trigger);
  });
  document.addEventListener('pointerout', (e) => {
    const trigger = triggerOf(e.target);
    if (trigger && !trigger.contains(e.relatedTarget as Node | null)) leave(trigger);
  });
  document.addEventListener('focusin', (e) => {
    const trigger = triggerOf(e.target);
    // Keyboard focus only (a click focuses a button too, without :focus-visible).
    if (trigger && trigger.matches(':focus-visible')) schedule(trigger);
  });
  document.addEventListener('focusout', (e) => {
    const trigger = triggerOf(e.target);
    if (trigger) leave(trigger);
  });
  document.addEventListener('pointerdown', close);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') close();
  });
}
