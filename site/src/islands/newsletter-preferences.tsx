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
  const [language, setLanguage] = useState<Lang>('en');
  const [topics, setTopics] = useState<NewsletterTopic[]>([]);
  const [saving, setSaving] = useState<Saving>('idle');

  const show = (p: NewsletterPreferences) => {
    setPrefs(p);
    setLanguage(p.language);
    setTopics(p.topics);
  };

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
        show((await res.json()) as NewsletterPreferences);
        setPhase('ready');
      })
      .catch(() => live && setPhase('loadError'));
    return () => {
      live = false;
    };
  }, []);

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
      if (res.status === 404) return setPhase('invalid');
      if (!res.ok) return setSaving('error');
      show((await res.json()) as NewsletterPreferences);
      setSaving('saved');
    } catch {
      setSaving('error');
    }
  }

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

  const status =
    saving === 'saved'
      ? s['newsletter.prefs.saved']
      : saving === 'error'
        ? s['newsletter.prefs.saveError']
        : saving === 'noTopic'
          ? s['newsletter.prefs.noTopic']
          : '';
  const [before, after = ''] = s['newsletter.prefs.for'].split('{email}');
  return (
    <div className="newsletter-prefs">
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
            {(Object.keys(strings) as Lang[]).map((l) => (
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
          {status}
        </p>
      </form>
      {prefs.state !== 'unsubscribed' && (
        <form
          className="panel newsletter-leave"
          method="post"
          action="/api/newsletter/unsubscribe"
          aria-labelledby="newsletter-leave-title"
        >
          <h2 id="newsletter-leave-title">{s['newsletter.prefs.leave']}</h2>
          <p>{s['newsletter.prefs.leaveText']}</p>
          <input type="hidden" name="token" value={token} />
          <input type="hidden" name="lang" value={lang} />
          <button className="button secondary" type="submit">
            {s['newsletter.prefs.unsubscribe']}
          </button>
        </form>
      )}
    </div>
  );
}
