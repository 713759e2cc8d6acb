// @vitest-environment jsdom
import { TOAST_DURATION_MS } from '@portfolio/contract/toasts';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ar } from '../i18n/ar';
import { en } from '../i18n/en';
import ContactForm, { invalidFields } from './contact-form';

const keys = [
  'contact.form',
  'contact.name',
  'contact.email',
  'contact.subject',
  'contact.message',
  'contact.send',
  'contact.sending',
  'successTitle',
  'successMessage',
  'errorTitle',
  'errorMessage',
  'validationError',
  'toast.region',
  'toast.dismiss',
] as const;
const strings = {
  en: Object.fromEntries(keys.map((k) => [k, en[k]])),
  ar: Object.fromEntries(keys.map((k) => [k, ar[k]])),
} as Parameters<typeof ContactForm>[0]['strings'];

function fill(values: Partial<Record<'name' | 'email' | 'subject' | 'message', string>>) {
  for (const [name, value] of Object.entries(values)) {
    fireEvent.change(document.querySelector(`[name="${name}"]`)!, { target: { value } });
  }
}

/** The toasts on screen: the items of the notification region's lists. */
const toasts = () => within(screen.getByRole('region', { name: 'Notifications (F8)' })).queryAllByRole('listitem');

describe('invalidFields', () => {
  it('needs every field and a real e-mail address', () => {
    expect(invalidFields({ name: ' ', email: 'nope', subject: 's', message: 'm' })).toEqual(['name', 'email']);
    expect(invalidFields({ name: 'n', email: 'a@b.co', subject: 's', message: 'm' })).toEqual([]);
  });
});

describe('ContactForm', () => {
  beforeEach(() => {
    document.documentElement.lang = 'en';
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it("shows 'Please fill in all fields correctly.' and sends nothing when a field is missing", async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch');
    render(<ContactForm strings={strings} />);
    fill({ name: 'Visitor', email: 'bad' });
    fireEvent.submit(document.querySelector('form')!);
    expect(await screen.findByText('Please fill in all fields correctly.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(document.querySelector('[name="email"]')!.getAttribute('aria-invalid')).toBe('true');
  });

  it("says 'Sending...' while sending, then 'Message Sent' and empties the form", async () => {
    let resolve!: (r: Response) => void;
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise((r) => (resolve = r)));
    render(<ContactForm strings={strings} />);
    fill({ name: 'Visitor', email: 'v@example.com', subject: 'Hi', message: 'Hello' });
    fireEvent.submit(document.querySelector('form')!);
    expect(await screen.findByRole('button', { name: 'Sending...' })).toHaveProperty('disabled', true);
    await act(async () => resolve(new Response('{}', { status: 201 })));
    expect(await screen.findByText('Message Sent')).toBeTruthy();
    expect(screen.getByText("Thank you for your message! I'll get back to you soon.")).toBeTruthy();
    expect((document.querySelector('[name="name"]') as HTMLInputElement).value).toBe('');
  });

  it("shows 'Error' / 'Failed to send message. Please try again.' when the server fails, keeping the text", async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('nope', { status: 500 }));
    render(<ContactForm strings={strings} />);
    fill({ name: 'Visitor', email: 'v@example.com', subject: 'Hi', message: 'Keep me' });
    fireEvent.submit(document.querySelector('form')!);
    expect(await screen.findByText('Failed to send message. Please try again.')).toBeTruthy();
    expect(screen.getByText('Error')).toBeTruthy();
    expect((document.querySelector('[name="message"]') as HTMLTextAreaElement).value).toBe('Keep me');
  });

  it('keeps one toast at a time and hides it after 5000 ms', async () => {
    vi.useFakeTimers();
    render(<ContactForm strings={strings} />);
    fireEvent.submit(document.querySelector('form')!);
    fireEvent.submit(document.querySelector('form')!);
    expect(toasts()).toHaveLength(1);
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(toasts()).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(toasts()).toHaveLength(0);
  });

  it('F8 moves focus to the notification region', () => {
    render(<ContactForm strings={strings} />);
    fireEvent.keyDown(document, { key: 'F8' });
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Notifications (F8)');
  });

  it('dismisses a toast swiped right by 50 px', async () => {
    render(<ContactForm strings={strings} />);
    fireEvent.submit(document.querySelector('form')!);
    await screen.findByRole('alert');
    const [item] = toasts();
    fireEvent.pointerDown(item, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(item, { clientX: 130, pointerId: 1 });
    fireEvent.pointerUp(item, { clientX: 130, pointerId: 1 });
    expect(toasts()).toHaveLength(1);
    fireEvent.pointerDown(item, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(item, { clientX: 151, pointerId: 1 });
    fireEvent.pointerUp(item, { clientX: 151, pointerId: 1 });
    expect(toasts()).toHaveLength(0);
  });

  it('uses Arabic strings when the page is Arabic', async () => {
    document.documentElement.lang = 'ar';
    render(<ContactForm strings={strings} />);
    fireEvent.submit(document.querySelector('form')!);
    expect(await screen.findByText('يُرجى تعبئة جميع الحقول بشكل صحيح.')).toBeTruthy();
  });
});

describe('ContactForm toasts', () => {
  beforeEach(() => {
    document.documentElement.lang = 'en';
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  // A live region inside a list item broke the list (axe's rule `list`, serious): the list itself is
  // the live region, there before any toast, and an error is an alert inside its plain item.
  it('announces toasts from a live list that is there before them; an error is an alert', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}', { status: 201 }));
    render(<ContactForm strings={strings} />);
    const region = screen.getByRole('region', { name: 'Notifications (F8)' });
    const live = region.querySelector('ol[aria-live="polite"]');
    expect(live).not.toBeNull();
    fireEvent.submit(document.querySelector('form')!);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Please fill in all fields correctly.');
    expect(alert.closest('li')?.parentElement?.tagName).toBe('OL');
    fill({ name: 'Visitor', email: 'v@example.com', subject: 'Hi', message: 'Hello' });
    fireEvent.submit(document.querySelector('form')!);
    await screen.findByText('Message Sent');
    expect(fetch).toHaveBeenCalled();
    expect(toasts()).toHaveLength(1);
    expect(live!.textContent).toContain('Message Sent');
    expect(region.querySelectorAll('li[role], ol[role], [role="status"]')).toHaveLength(0);
  });

  it('keeps a toast while the pointer rests on it, then hides it 5000 ms after the pointer leaves', () => {
    vi.useFakeTimers();
    render(<ContactForm strings={strings} />);
    fireEvent.submit(document.querySelector('form')!);
    fireEvent.mouseEnter(toasts()[0]);
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS * 3));
    expect(toasts()).toHaveLength(1);
    fireEvent.mouseLeave(toasts()[0]);
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS));
    expect(toasts()).toHaveLength(0);
  });
});
