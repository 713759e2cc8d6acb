import { TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '@portfolio/contract';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { I18nProvider } from '../i18n/i18n';
import { Modal } from './modal';
import { Tooltip, TooltipGroup, TooltipGroupContext } from './tooltip';

function IconButton({ label }: { label: string }) {
  return <Tooltip label={label}>{(trigger) => <button {...trigger}>×</button>}</Tooltip>;
}

function renderIcons(
  ui = (
    <>
      <IconButton label="Close" />
      <IconButton label="Show password" />
    </>
  ),
) {
  const user = userEvent.setup();
  // A fresh group per test: the skip window of one test must not reach the next.
  render(<TooltipGroupContext.Provider value={new TooltipGroup()}>{ui}</TooltipGroupContext.Provider>);
  return user;
}

const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));
// user-event waits on real timers between steps, so with fake timers the pointer moves by fireEvent.
const mouse = { pointerType: 'mouse' };
const enter = (element: Element, from: Element = document.body) => fireEvent.pointerEnter(element, { ...mouse, relatedTarget: from });
const leave = (element: Element, to: Element = document.body) => fireEvent.pointerLeave(element, { ...mouse, relatedTarget: to });
const shown = () => screen.queryByRole('tooltip')?.textContent ?? null;

describe('tooltips of icon-only controls: timing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('uses the delays of section 9', () => {
    expect([TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS]).toEqual([700, 300]);
  });

  it('opens 700 ms after the pointer rests on the control, not before', () => {
    renderIcons();
    enter(screen.getByRole('button', { name: 'Close' }));
    wait(TOOLTIP_OPEN_DELAY_MS - 1);
    expect(shown()).toBeNull();
    wait(1);
    expect(shown()).toBe('Close');
  });

  it('does not open when the pointer leaves before 700 ms', () => {
    renderIcons();
    const close = screen.getByRole('button', { name: 'Close' });
    enter(close);
    wait(500);
    leave(close);
    wait(TOOLTIP_OPEN_DELAY_MS);
    expect(shown()).toBeNull();
  });

  it('skip delay: another tooltip within 300 ms of one closing opens at once; after 300 ms it waits 700 ms again', () => {
    renderIcons();
    const close = screen.getByRole('button', { name: 'Close' });
    const eye = screen.getByRole('button', { name: 'Show password' });
    enter(close);
    wait(TOOLTIP_OPEN_DELAY_MS);
    expect(shown()).toBe('Close');

    leave(close);
    expect(shown()).toBeNull();
    wait(TOOLTIP_SKIP_DELAY_MS - 1);
    enter(eye);
    expect(shown()).toBe('Show password');

    leave(eye);
    wait(TOOLTIP_SKIP_DELAY_MS);
    enter(close);
    wait(TOOLTIP_OPEN_DELAY_MS - 1);
    expect(shown()).toBeNull();
    wait(1);
    expect(shown()).toBe('Close');
  });

  it('stays open while the pointer moves from the control onto the tooltip, closes when it leaves both', () => {
    renderIcons();
    const close = screen.getByRole('button', { name: 'Close' });
    enter(close);
    wait(TOOLTIP_OPEN_DELAY_MS);
    const tip = screen.getByRole('tooltip');
    leave(close, tip);
    enter(tip, close);
    wait(TOOLTIP_OPEN_DELAY_MS);
    expect(shown()).toBe('Close');
    leave(tip);
    expect(shown()).toBeNull();
  });

  it('does not open for a touch, and a press closes it', () => {
    renderIcons();
    fireEvent.pointerEnter(screen.getByRole('button', { name: 'Close' }), { pointerType: 'touch', relatedTarget: document.body });
    wait(TOOLTIP_OPEN_DELAY_MS);
    expect(shown()).toBeNull();

    const eye = screen.getByRole('button', { name: 'Show password' });
    enter(eye);
    wait(TOOLTIP_OPEN_DELAY_MS);
    expect(shown()).toBe('Show password');
    fireEvent.pointerDown(eye, mouse);
    expect(shown()).toBeNull();
  });
});

describe('tooltips of icon-only controls: names and keyboard', () => {
  it('names its control: the tooltip text is the button’s accessible name', () => {
    renderIcons();
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Show password' })).toBeTruthy();
    expect(shown()).toBeNull();
  });

  it('opens at once on keyboard focus; Esc hides it without moving focus or closing the dialog; blur hides it', async () => {
    const onClose = vi.fn();
    const user = renderIcons(
      <I18nProvider>
        <Modal title="Edit Book" onClose={onClose}>
          <input aria-label="Title" />
        </Modal>
      </I18nProvider>,
    );
    expect(document.activeElement).toBe(screen.getByLabelText('Title'));
    await user.tab();
    const close = screen.getByRole('button', { name: 'Close' });
    expect(document.activeElement).toBe(close);
    expect(shown()).toBe('Close');

    await user.keyboard('{Escape}');
    expect(shown()).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(close);

    await user.tab();
    expect(shown()).toBeNull();
    await user.tab();
    expect(shown()).toBe('Close');

    // With the tooltip hidden, Esc is the dialog's again.
    await user.keyboard('{Escape}');
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('speaks the interface language: Arabic in Arabic', async () => {
    document.documentElement.lang = 'ar';
    const user = renderIcons(
      <I18nProvider>
        <Modal title="تعديل" onClose={() => {}}>
          <input aria-label="العنوان" />
        </Modal>
      </I18nProvider>,
    );
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'إغلاق' }));
    expect(shown()).toBe('إغلاق');
  });
});
