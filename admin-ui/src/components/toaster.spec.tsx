import { TOAST_DURATION_MS, TOAST_HOTKEY, TOAST_LIMIT, TOAST_REMOVE_DELAY_MS, TOAST_SWIPE_THRESHOLD_PX } from '@portfolio/contract/toasts';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ToastProvider, useToast } from '../hooks/use-toast';
import { I18nProvider } from '../i18n/i18n';
import { Toaster } from './toaster';

function Trigger() {
  const { toast } = useToast();
  return (
    <>
      <button onClick={() => toast({ title: 'Book moved to trash' })}>first</button>
      <button onClick={() => toast({ title: 'Failed to delete book', detail: '500: boom', variant: 'destructive' })}>second</button>
    </>
  );
}

function renderToaster() {
  return render(
    <I18nProvider>
      <ToastProvider>
        <Trigger />
        <Toaster />
      </ToastProvider>
    </I18nProvider>,
  );
}

/** The toasts on screen: the items of the notification region's lists. */
const toasts = () => within(screen.getByRole('region', { name: 'Notifications (F8)' })).queryAllByRole('listitem');

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  // The contract has no test of its toast constants; until it has, the overlay checks what it uses.
  it('uses the constants of section 9', () => {
    expect([TOAST_LIMIT, TOAST_DURATION_MS, TOAST_REMOVE_DELAY_MS, TOAST_SWIPE_THRESHOLD_PX, TOAST_HOTKEY]).toEqual([
      1,
      5000,
      1_000_000,
      50,
      'F8',
    ]);
  });

  it('shows one toast at a time: a new one replaces the old', () => {
    renderToaster();
    fireEvent.click(screen.getByText('first'));
    expect(toasts().map((item) => item.textContent)).toEqual([expect.stringContaining('Book moved to trash')]);
    fireEvent.click(screen.getByText('second'));
    expect(screen.queryByText('Book moved to trash')).toBeNull();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Failed to delete book');
    expect(alert.textContent).toContain('500: boom');
  });

  it('disappears after 5000 ms', () => {
    renderToaster();
    fireEvent.click(screen.getByText('first'));
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(screen.queryByText('Book moved to trash')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Book moved to trash')).toBeNull();
  });

  it('is dismissed by a swipe to the right beyond 50 px, not by a shorter one', () => {
    renderToaster();
    fireEvent.click(screen.getByText('first'));
    const [toast] = toasts();
    fireEvent.pointerDown(toast, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(toast, { clientX: 140, pointerId: 1 });
    fireEvent.pointerUp(toast, { clientX: 150, pointerId: 1 });
    expect(screen.queryByText('Book moved to trash')).not.toBeNull();
    fireEvent.pointerDown(toast, { clientX: 100, pointerId: 1 });
    fireEvent.pointerUp(toast, { clientX: 100 - TOAST_SWIPE_THRESHOLD_PX - 20, pointerId: 1 });
    expect(screen.queryByText('Book moved to trash')).not.toBeNull();
    fireEvent.pointerDown(toast, { clientX: 100, pointerId: 1 });
    fireEvent.pointerUp(toast, { clientX: 151, pointerId: 1 });
    expect(screen.queryByText('Book moved to trash')).toBeNull();
  });

  it('has a close button', () => {
    renderToaster();
    fireEvent.click(screen.getByText('first'));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByText('Book moved to trash')).toBeNull();
  });

  it('F8 focuses the notification region, Esc returns focus', () => {
    renderToaster();
    const button = screen.getByText('first');
    button.focus();
    fireEvent.keyDown(document, { key: 'F8', code: 'F8' });
    const region = screen.getByRole('region', { name: 'Notifications (F8)' });
    expect(document.activeElement).toBe(region);
    fireEvent.keyDown(region, { key: 'Escape' });
    expect(document.activeElement).toBe(button);
  });
});

describe('toast structure', () => {
  // A live region inside a list item broke the list (axe's rule `list`, serious): the list itself is
  // the live region, there before any toast, and an error is an alert inside its plain item.
  it('announces toasts from a live list that is there before them; an error is an alert', () => {
    renderToaster();
    const region = screen.getByRole('region', { name: 'Notifications (F8)' });
    const live = region.querySelector('ol[aria-live="polite"]');
    expect(live).not.toBeNull();
    fireEvent.click(screen.getByText('first'));
    expect(live!.textContent).toContain('Book moved to trash');
    expect(region.querySelectorAll('li[role], ol[role], [role="status"]')).toHaveLength(0);
    fireEvent.click(screen.getByText('second'));
    const alert = screen.getByRole('alert');
    expect(alert.closest('li')?.parentElement?.tagName).toBe('OL');
    expect(region.querySelectorAll('li[role], ol[role]')).toHaveLength(0);
  });

  it('isolates a technical detail, so "500: boom" keeps its order in right-to-left text', () => {
    renderToaster();
    fireEvent.click(screen.getByText('second'));
    expect(screen.getByRole('alert').querySelector('bdi')?.textContent).toBe('500: boom');
  });
});
