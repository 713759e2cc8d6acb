import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '@portfolio/contract/toasts';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';

export interface ToastInput {
  title: string;
  description?: string;
  /**
   * A technical part (a status and the server's words, often Latin in an Arabic toast): shown in
   * its own <bdi>, so "500: boom" does not read "boom :500" right to left.
   */
  detail?: string;
  variant?: 'default' | 'destructive';
}

export interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

interface ToastContextValue {
  toasts: ToastItem[];
  toast: (input: ToastInput) => number;
  dismiss: (id: number) => void;
}

const ToastContext = createContext<ToastContextValue | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const nextId = useRef(1);
  const removals = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const toast = useCallback((input: ToastInput) => {
    const id = nextId.current++;
    // One at a time: a new toast replaces the one on screen.
    setToasts((current) => [{ ...input, id, open: true }, ...current].slice(0, TOAST_LIMIT));
    return id;
  }, []);

  const dismiss = useCallback((id: number) => {
    setToasts((current) => current.map((item) => (item.id === id ? { ...item, open: false } : item)));
    if (removals.current.has(id)) return;
    const timer = setTimeout(() => {
      removals.current.delete(id);
      setToasts((current) => current.filter((item) => item.id !== id));
    }, TOAST_REMOVE_DELAY_MS);
    removals.current.set(id, timer);
  }, []);

  const value = useMemo(() => ({ toasts, toast, dismiss }), [toasts, toast, dismiss]);
  return <ToastContext.Provider value={value}>{children}</ToastContext.Provider>;
}

export function useToast(): ToastContextValue {
  const value = useContext(ToastContext);
  if (!value) throw new Error('useToast needs a ToastProvider');
  return value;
}
