/**
 * The site's toasts (spec §9, constants from @portfolio/contract/toasts): one visible at a time, so a
 * new toast replaces the current one; a dismissed toast stays mounted (hidden) TOAST_REMOVE_DELAY_MS
 * before it is removed.
 */
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '@portfolio/contract/toasts';

export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  open: boolean;
}

type Listener = (toasts: Toast[]) => void;
let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const removeTimers = new Map<number, ReturnType<typeof setTimeout>>();

const emit = () => listeners.forEach((l) => l(toasts));

export function toast(input: Omit<Toast, 'id' | 'open'>): number {
  const id = nextId++;
  toasts = [{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT);
  emit();
  return id;
}

export function dismiss(id: number) {
  toasts = toasts.map((t) => (t.id === id ? { ...t, open: false } : t));
  emit();
  if (!removeTimers.has(id)) {
    removeTimers.set(
      id,
      setTimeout(() => {
        removeTimers.delete(id);
        toasts = toasts.filter((t) => t.id !== id);
        emit();
      }, TOAST_REMOVE_DELAY_MS),
    );
  }
}

export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  listener(toasts);
  return () => listeners.delete(listener);
}
