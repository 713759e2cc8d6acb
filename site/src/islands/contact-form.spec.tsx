// @vitest-environment jsdom
import { TOAST_DURATION_MS } from '@portfolio/contract/toasts';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
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
    expect(screen.getAllByRole('status')).toHaveLength(1);
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(screen.queryAllByRole('status')).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryAllByRole('status')).toHaveLength(0);
  });

  it('F8 moves focus to the notification region', () => {
    render(<ContactForm strings={strings} />);
    fireEvent.keyDown(document, { key: 'F8' });
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Notifications (F8)');
  });

  it('dismisses a toast swiped right by 50 px', async () => {
    render(<ContactForm strings={strings} />);
    fireEvent.submit(document.querySelector('form')!);
    const item = await screen.findByRole('status');
    fireEvent.pointerDown(item, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(item, { clientX: 130, pointerId: 1 });
    fireEvent.pointerUp(item, { clientX: 130, pointerId: 1 });
    expect(screen.queryAllByRole('status')).toHaveLength(1);
    fireEvent.pointerDown(item, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(item, { clientX: 151, pointerId: 1 });
    fireEvent.pointerUp(item, { clientX: 151, pointerId: 1 });
    expect(screen.queryAllByRole('status')).toHaveLength(0);
  });

  it('uses Arabic strings when the page is Arabic', async () => {
    document.documentElement.lang = 'ar';
    render(<ContactForm strings={strings} />);
    fireEvent.submit(document.querySelector('form')!);
    expect(await screen.findByText('يُرجى تعبئة جميع الحقول بشكل صحيح.')).toBeTruthy();
  });
});
