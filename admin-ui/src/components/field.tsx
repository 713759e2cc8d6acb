import type { UploadFolder } from '@portfolio/contract/types';
import { type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes, useId, useRef, useState } from 'react';

import { useI18n } from '../i18n/i18n';
import type { Message } from '../i18n/message';
import { FormatBar, formatShortcut, useFormatting } from './format-bar';
import { StrokeIcon } from './icon';
import { Tooltip } from './tooltip';

export interface ControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
  'aria-required'?: true;
}

interface FieldProps {
  label: string;
  error?: Message;
  hint?: ReactNode;
  required?: boolean;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}

/** A label, one control, a hint and the field's error, wired together for assistive technology. */
export function Field({ label, error, hint, required, className, children }: FieldProps) {
  const { msg } = useI18n();
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`ao-field ${className ?? ''}`}>
      <div className="ao-label-row">
        <label htmlFor={id}>{label}</label>
        {required && (
          <span className="ao-required" aria-hidden="true">
            *
          </span>
        )}
      </div>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy, 'aria-required': required || undefined })}
      {hint && (
        <p id={hintId} className="ao-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="ao-field-error">
          {msg(error)}
        </p>
      )}
    </div>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'id'>;

interface TextFieldProps extends InputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: Message;
  hint?: ReactNode;
}

/** Text, e-mail, URL, number or date input. Text follows its own direction (dir="auto"). */
export function TextField({ label, value, onChange, error, hint, required, className, ...input }: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} required={required} className={className}>
      {(control) => (
        <input dir="auto" {...input} {...control} className="ao-input" value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </Field>
  );
}

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value' | 'id'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: Message;
  hint?: ReactNode;
  /** Formatted text (Markdown): the formatting bar and its shortcuts, pictures uploaded to this folder. */
  format?: UploadFolder;
}

export function TextAreaField({
  label,
  value,
  onChange,
  error,
  hint,
  required,
  rows = 4,
  className,
  format,
  ...textarea
}: TextAreaFieldProps) {
  const area = useRef<HTMLTextAreaElement>(null);
  const run = useFormatting(area);
  return (
    <Field label={label} error={error} hint={hint} required={required} className={className}>
      {(control) => (
        <>
          {format && <FormatBar area={area} folder={format} label={label} />}
          <textarea
            ref={area}
            dir="auto"
            rows={rows}
            {...textarea}
            {...control}
            className="ao-input"
            value={value}
            onChange={(e) => onChange(e.target.value)}
            onKeyDown={format ? (event) => formatShortcut(event, run) : textarea.onKeyDown}
          />
        </>
      )}
    </Field>
  );
}

interface SelectFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  placeholder?: string;
  error?: Message;
  required?: boolean;
  className?: string;
}

export function SelectField({ label, value, onChange, options, placeholder, error, required, className }: SelectFieldProps) {
  return (
    <Field label={label} error={error} required={required} className={className}>
      {(control) => (
        <select {...control} className="ao-input" value={value} onChange={(e) => onChange(e.target.value)}>
          {placeholder !== undefined && (
            <option value="" disabled>
              {placeholder}
            </option>
          )}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

interface CheckboxFieldProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** Rendered as a switch (role="switch"), e.g. Show Deleted. */
  asSwitch?: boolean;
}

export function CheckboxField({ label, checked, onChange, asSwitch }: CheckboxFieldProps) {
  return (
    <label className={asSwitch ? 'ao-switch' : 'ao-checkbox'}>
      <input type="checkbox" role={asSwitch ? 'switch' : undefined} checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

interface PasswordFieldProps extends Omit<TextFieldProps, 'type'> {
  autoComplete: 'current-password' | 'new-password';
}

/** A password input with a show/hide toggle. It keeps the interface's direction, so the toggle never covers the text. */
export function PasswordField({ label, value, onChange, error, hint, required, autoComplete, ...input }: PasswordFieldProps) {
  const { t } = useI18n();
  const [visible, setVisible] = useState(false);
  return (
    <Field label={label} error={error} hint={hint} required={required}>
      {(control) => (
        <div className="ao-password">
          <input
            {...input}
            {...control}
            className="ao-input"
            type={visible ? 'text' : 'password'}
            autoComplete={autoComplete}
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
          <Tooltip label={visible ? t('login.hidePassword') : t('login.showPassword')}>
            {(trigger) => (
              <button
                type="button"
                className="ao-password-toggle"
                aria-pressed={visible}
                {...trigger}
                onClick={() => setVisible((v) => !v)}
              >
                <EyeIcon open={!visible} />
              </button>
            )}
          </Tooltip>
        </div>
      )}
    </Field>
  );
}

function EyeIcon({ open }: { open: boolean }) {
  return (
    <StrokeIcon size={20}>
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {!open && <path d="M3 3l18 18" />}
    </StrokeIcon>
  );
}

/** The red alert of a form (login failures and other messages that belong to no single field). */
export function FormAlert({ children, tone = 'error' }: { children: ReactNode; tone?: 'error' | 'success' }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`ao-alert ao-alert-${tone}`}>
      {children}
    </div>
  );
}
