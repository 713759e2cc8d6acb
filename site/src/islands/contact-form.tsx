import type { Lang } from '@portfolio/contract/languages';
import { isEmailAddress } from '@portfolio/contract/rules';
import { type FormEvent, useEffect, useState } from 'react';

import { Both, ofKey } from '../react/both';
import { toast } from '../react/toast-store';
import { Toaster } from '../react/toaster';
import { useLang } from '../react/use-lang';

type Keys =
  | 'contact.form'
  | 'contact.name'
  | 'contact.email'
  | 'contact.subject'
  | 'contact.message'
  | 'contact.send'
  | 'contact.sending'
  | 'successTitle'
  | 'successMessage'
  | 'errorTitle'
  | 'errorMessage'
  | 'validationError'
  | 'toast.region'
  | 'toast.dismiss';
type Strings = Record<Lang, Record<Keys, string>>;
type State = 'idle' | 'sending' | 'success' | 'error';
type Field = 'name' | 'email' | 'subject' | 'message';

const FIELDS: Field[] = ['name', 'email', 'subject', 'message'];

export function invalidFields(values: Record<Field, string>): Field[] {
  return FIELDS.filter((f) => !values[f].trim() || (f === 'email' && !isEmailAddress(values[f])));
}

export default function ContactForm({ strings }: { strings: Strings }) {
  const lang = useLang();
  const s = strings[lang];
  const [state, setState] = useState<State>('idle');
  const [invalid, setInvalid] = useState<Field[]>([]);
  // Until the form is interactive, sending is off: a native submit would put the message in the URL.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const values = Object.fromEntries(FIELDS.map((f) => [f, String(data.get(f) ?? '')])) as Record<Field, string>;
    const bad = invalidFields(values);
    setInvalid(bad);
    if (bad.length) {
      toast({ title: s.errorTitle, description: s.validationError, variant: 'destructive' });
      form.querySelector<HTMLElement>(`[name="${bad[0]}"]`)?.focus();
      return;
    }
    setState('sending');
    try {
      const res = await fetch('/api/contacts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        credentials: 'include',
        body: JSON.stringify(Object.fromEntries(FIELDS.map((f) => [f, values[f].trim()]))),
      });
      if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`);
      setState('success');
      form.reset();
      toast({ title: s.successTitle, description: s.successMessage });
    } catch {
      setState('error');
      toast({ title: s.errorTitle, description: s.errorMessage, variant: 'destructive' });
    }
  }

  const field = (name: Field, label: Keys, type: 'text' | 'email' | 'textarea', autoComplete?: string) => {
    const props = {
      id: `contact-${name}`,
      name,
      required: true,
      dir: 'auto' as const,
      'aria-invalid': invalid.includes(name) || undefined,
      autoComplete,
    };
    return (
      <div className="field">
        <label htmlFor={props.id}>
          <Both text={ofKey(strings, label)} />
        </label>
        {type === 'textarea' ? <textarea {...props} rows={6} maxLength={10000} /> : <input {...props} type={type} maxLength={300} />}
      </div>
    );
  };

  return (
    <>
      <form className="panel" noValidate onSubmit={onSubmit} aria-labelledby="contact-form-title" data-state={state}>
        <h2 id="contact-form-title">
          <Both text={ofKey(strings, 'contact.form')} />
        </h2>
        {field('name', 'contact.name', 'text', 'name')}
        {field('email', 'contact.email', 'email', 'email')}
        {field('subject', 'contact.subject', 'text')}
        {field('message', 'contact.message', 'textarea')}
        <button className="button" type="submit" disabled={!ready || state === 'sending'}>
          {state === 'sending' ? s['contact.sending'] : <Both text={ofKey(strings, 'contact.send')} />}
        </button>
      </form>
      <Toaster regionLabel={s['toast.region']} dismissLabel={s['toast.dismiss']} />
    </>
  );
}
