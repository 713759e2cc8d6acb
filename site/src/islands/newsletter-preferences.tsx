import type { Lang } from '@portfolio/contract/languages';
import { NEWSLETTER_TOPICS, type NewsletterPreferences, type NewsletterTopic } from '@portfolio/contract/newsletter';
import { type FormEvent, useEffect, useState } from 'react';

import { Both, ofKey } from '../react/both';
import { useLang } from '../react/use-lang';

export const PREFERENCES_KEYS = [
  'newsletter.prefs.loading',
  'newsletter.prefs.for',
  'newsletter.prefs.invalid',
  'newsletter.prefs.loadError',
  'newsletter.prefs.notSubscribed',
  'newsletter.prefs.save',
  'newsletter.prefs.saving',
  'newsletter.prefs.saved',
  'newsletter.prefs.saveError',
  'newsletter.prefs.noTopic',
  'newsletter.prefs.leave',
  'newsletter.prefs.leaveText',
  'newsletter.prefs.unsubscribe',
  'newsletter.language',
  'newsletter.language.en',
  'newsletter.language.ar',
  'newsletter.topics',
  'newsletter.topic.essays',
  'newsletter.topic.news',
  'newsletter.topic.books',
  'notFound.home',
] as const;
type Keys = (typeof PREFERENCES_KEYS)[number];
type Strings = Record<Lang, Record<Keys, string>>;
type Phase = 'loading' | 'invalid' | 'loadError' | 'ready';
type Saving = 'idle' | 'saving' | 'saved' | 'error' | 'noTopic';

const TOPICS: readonly NewsletterTopic[] = NEWSLETTER_TOPICS;

const endpoint = (token: string) => `/api/newsletter/preferences?token=${encodeURIComponent(token)}`;

/**
 * A reader's newsletter preferences, reached by the link in every mail (`?token=`): language and
 * topics saved with PUT; leaving is a plain form post to the API, which answers with the
 * unsubscribed page in the page's language.
 */
export default function NewsletterPreferencesForm({ strings, homeHref }: { strings: Strings; homeHref: string }) {
  const lang = useLang();
  const s = strings[lang];
  const [token, setToken] = useState('');
  const [phase, setPhase] = useState<Phase>('loading');
  const [prefs, setPrefs] = useState<NewsletterPreferences | null>(null);

  useEffect(() => {
    const given = new URLSearchParams(location.search).get('token') ?? '';
    setToken(given);
    if (!given) return setPhase('invalid');
    let live = true;
    fetch(endpoint(given), { headers: { accept: 'application/json' } })
      .then(async (res) => {
        if (!live) return;
        if (res.status === 404 || res.status === 400) return setPhase('invalid');
        if (!res.ok) return setPhase('loadError');
        setPrefs((await res.json()) as NewsletterPreferences);
        setPhase('ready');
      })
      .catch(() => live && setPhase('loadError'));
    return () => {
      live = false;
    };
  }, []);

  if (phase === 'loading')
    return (
      <p className="newsletter-status" role="status" data-newsletter-loading>
        <Both text={ofKey(strings, 'newsletter.prefs.loading')} />
      </p>
    );
  if (phase === 'invalid' || phase === 'loadError' || !prefs)
    return (
      <div role="alert">
        <p className="newsletter-status" data-tone="error">
          {s[phase === 'loadError' ? 'newsletter.prefs.loadError' : 'newsletter.prefs.invalid']}
        </p>
        <p>
          <a className="button" href={homeHref}>
            {s['notFound.home']}
          </a>
        </p>
      </div>
    );
  return (
    <div className="newsletter-prefs">
      <PreferencesEditor
        s={s}
        languages={Object.keys(strings) as Lang[]}
        token={token}
        prefs={prefs}
        onSaved={setPrefs}
        onInvalid={() => setPhase('invalid')}
      />
      {prefs.state !== 'unsubscribed' && <LeaveForm s={s} token={token} lang={lang} />}
    </div>
  );
}

interface EditorProps {
  s: Record<Keys, string>;
  languages: Lang[];
  token: string;
  prefs: NewsletterPreferences;
  onSaved: (prefs: NewsletterPreferences) => void;
  onInvalid: () => void;
}

function PreferencesEditor({ s, languages, token, prefs, onSaved, onInvalid }: EditorProps) {
  const [language, setLanguage] = useState<Lang>(prefs.language);
  const [topics, setTopics] = useState<NewsletterTopic[]>(prefs.topics);
  const [saving, setSaving] = useState<Saving>('idle');

  async function onSave(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!topics.length) return setSaving('noTopic');
    setSaving('saving');
    try {
      const res = await fetch(endpoint(token), {
        method: 'PUT',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ language, topics }),
      });
      if (res.status === 404) return onInvalid();
      if (!res.ok) return setSaving('error');
      const saved = (await res.json()) as NewsletterPreferences;
      setLanguage(saved.language);
      setTopics(saved.topics);
      onSaved(saved);
      setSaving('saved');
    } catch {
      setSaving('error');
    }
  }

  const status = { saved: 'newsletter.prefs.saved', error: 'newsletter.prefs.saveError', noTopic: 'newsletter.prefs.noTopic' } as const;
  const [before, after = ''] = s['newsletter.prefs.for'].split('{email}');
  return (
    <form className="panel" onSubmit={onSave} aria-labelledby="newsletter-prefs-for">
      <p id="newsletter-prefs-for" style={{ marginBlockStart: 0 }}>
        {before}
        <strong dir="ltr">{prefs.email}</strong>
        {after}
      </p>
      {prefs.state === 'unsubscribed' && <p>{s['newsletter.prefs.notSubscribed']}</p>}
      <div className="field">
        <label htmlFor="newsletter-prefs-language">{s['newsletter.language']}</label>
        <select id="newsletter-prefs-language" name="language" value={language} onChange={(e) => setLanguage(e.target.value as Lang)}>
          {languages.map((l) => (
            <option key={l} value={l}>
              {s[`newsletter.language.${l}`]}
            </option>
          ))}
        </select>
      </div>
      <fieldset>
        <legend>{s['newsletter.topics']}</legend>
        {TOPICS.map((topic) => (
          <label key={topic} className="newsletter-topic">
            <input
              type="checkbox"
              name="topics"
              value={topic}
              checked={topics.includes(topic)}
              onChange={(e) => setTopics(TOPICS.filter((t) => (t === topic ? e.target.checked : topics.includes(t))))}
            />{' '}
            {s[`newsletter.topic.${topic}`]}
          </label>
        ))}
      </fieldset>
      <button className="button" type="submit" disabled={saving === 'saving'}>
        {saving === 'saving' ? s['newsletter.prefs.saving'] : s['newsletter.prefs.save']}
      </button>
      <p className="newsletter-status" role="status" aria-live="polite" data-tone={saving === 'saved' ? 'ok' : 'error'}>
        {saving in status ? s[status[saving as keyof typeof status]] : ''}
      </p>
    </form>
  );
}

/** Leaving: a plain form post, so the API answers with the unsubscribed page in the page's language (`lang`). */
function LeaveForm({ s, token, lang }: { s: Record<Keys, string>; token: string; lang: Lang }) {
  return (
    <form className="panel newsletter-leave" method="post" action="/api/newsletter/unsubscribe" aria-labelledby="newsletter-leave-title">
      <h2 id="newsletter-leave-title">{s['newsletter.prefs.leave']}</h2>
      <p>{s['newsletter.prefs.leaveText']}</p>
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="lang" value={lang} />
      <button className="button secondary" type="submit">
        {s['newsletter.prefs.unsubscribe']}
      </button>
    </form>
  );
}
