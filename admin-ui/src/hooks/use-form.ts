import { type FormEvent, useCallback, useRef, useState } from 'react';

import { ApiError } from '../api/client';
import type { Message } from '../i18n/message';

/** Field → its problem: a catalogue key or ref from the form's own checks, or the API's answer. */
export type FormErrors<V> = Partial<Record<keyof V & string, Message>>;

interface UseFormOptions<V> {
  initialValues: V | (() => V);
  /** Returns field → message key (fields show it in the overlay's language). */
  validate?: (values: V) => FormErrors<V>;
  onSubmit: (values: V) => Promise<void> | void;
  /** Called after a failed submit; the API's field errors are already on the fields. */
  onError?: (error: unknown) => void;
}

/**
 * Form state with validation on submit (then on every change), the API's field errors mapped
 * onto the fields, and focus moved to the first invalid field.
 */
export function useForm<V extends object>({ initialValues, validate, onSubmit, onError }: UseFormOptions<V>) {
  const [values, setValues] = useState<V>(initialValues);
  const [errors, setErrors] = useState<FormErrors<V>>({});
  const [isSubmitting, setSubmitting] = useState(false);
  const attempted = useRef(false);
  const formRef = useRef<HTMLFormElement | null>(null);

  const setValue = useCallback(
    <K extends keyof V & string>(name: K, value: V[K]) => {
      setValues((current) => {
        const next = { ...current, [name]: value };
        if (attempted.current && validate) setErrors(validate(next));
        else setErrors((previous) => (previous[name] ? { ...previous, [name]: undefined } : previous));
        return next;
      });
    },
    [validate],
  );

  const focusFirstInvalid = () => setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);

  const handleSubmit = async (event?: FormEvent<HTMLFormElement>) => {
    event?.preventDefault();
    if (event) formRef.current = event.currentTarget;
    if (isSubmitting) return;
    attempted.current = true;
    const found = validate?.(values) ?? {};
    setErrors(found);
    if (Object.values(found).some(Boolean)) {
      focusFirstInvalid();
      return;
    }
    setSubmitting(true);
    try {
      await onSubmit(values);
    } catch (error) {
      if (error instanceof ApiError) {
        const fromServer: FormErrors<V> = {};
        for (const [field, message] of Object.entries(error.fieldErrors)) {
          if (field in values) fromServer[field as keyof V & string] = message;
        }
        if (Object.keys(fromServer).length) {
          setErrors(fromServer);
          focusFirstInvalid();
        }
      }
      onError?.(error);
    } finally {
      setSubmitting(false);
    }
  };

  return { values, errors, setValue, setValues, setErrors, isSubmitting, handleSubmit };
}
