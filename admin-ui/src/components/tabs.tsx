import { type KeyboardEvent, useRef } from 'react';

import { useI18n } from '../i18n/i18n';

export interface TabItem<V extends string> {
  value: V;
  label: string;
}

interface TabsProps<V extends string> {
  /** Prefix of the tab and panel ids (see tabPanelProps). */
  idPrefix: string;
  label: string;
  items: TabItem<V>[];
  value: V;
  onChange: (value: V) => void;
  className?: string;
  /** Give the selected tab the first focus when its dialog opens. */
  autoFocus?: boolean;
}

/** ARIA tabs with arrow keys (mirrored in right-to-left), Home and End; one tab stop. */
export function Tabs<V extends string>({ idPrefix, label, items, value, onChange, className, autoFocus }: TabsProps<V>) {
  const { dir } = useI18n();
  const listRef = useRef<HTMLDivElement>(null);

  const select = (index: number) => {
    const wrapped = (index + items.length) % items.length;
    onChange(items[wrapped].value);
    (listRef.current?.children[wrapped] as HTMLElement | undefined)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.value === value);
    const forward = dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
    const backward = dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
    const target =
      event.key === forward
        ? index + 1
        : event.key === backward
          ? index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? items.length - 1
              : null;
    if (target === null) return;
    event.preventDefault();
    select(target);
  };

  return (
    <div ref={listRef} role="tablist" aria-label={label} className={`ao-tabs ${className ?? ''}`} onKeyDown={onKeyDown}>
      {items.map((item) => {
        const selected = item.value === value;
        return (
          <button
            key={item.value}
            id={tabId(idPrefix, item.value)}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls={selected ? panelId(idPrefix, item.value) : undefined}
            tabIndex={selected ? 0 : -1}
            data-autofocus={selected && autoFocus ? '' : undefined}
            className="ao-tab"
            onClick={() => onChange(item.value)}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}

const tabId = (prefix: string, value: string) => `${prefix}-tab-${value}`;
const panelId = (prefix: string, value: string) => `${prefix}-panel-${value}`;

/** Props of the panel of the selected tab. */
export function tabPanelProps(idPrefix: string, value: string) {
  return { role: 'tabpanel', id: panelId(idPrefix, value), 'aria-labelledby': tabId(idPrefix, value), tabIndex: 0 } as const;
}
