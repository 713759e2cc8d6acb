/**
 * Toasts (specification §9): at most one visible at a time; a toast closes itself after 5000 ms;
 * a dismissed toast is removed from memory 1,000,000 ms later; a swipe of 50 px dismisses it; F8
 * moves focus to the toast region.
 */
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = 'F8';
