import type { Lang } from '@portfolio/contract/languages';
import { useEffect, useRef } from 'react';

import { enhanceHeaderSearch } from '../lib/search/ui';
import { Both, ofKey } from '../react/both';

type Strings = Record<Lang, Record<string, string>>;

/**
 * The header's search box: a plain form to /search (works without JavaScript). Hydrated with
 * `client:focus`, so its code (and then the index) loads only when a visitor opens it; it then
 * becomes a combobox with suggestions (lib/search/ui.ts).
 */
export default function SearchBox({ strings, action }: { strings: Strings; action: string }) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (form.current) enhanceHeaderSearch(form.current, strings);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on hydration
  }, []);
  return (
    <form ref={form} className="site-search" role="search" action={action} method="get" data-site-search>
      <label className="visually-hidden" htmlFor="site-search-q">
        <Both text={ofKey(strings, 'search.label')} />
      </label>
      <input
        id="site-search-q"
        className="site-search-input"
        type="search"
        name="q"
        autoComplete="off"
        spellCheck={false}
        enterKeyHint="search"
      />
      <button type="submit" className="site-search-submit" data-tooltip-trigger>
        <span className="tooltip" role="tooltip">
          <Both text={ofKey(strings, 'search.submit')} />
        </span>
        <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24">
          <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M15.5 15.5 21 21" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </form>
  );
}
