import type { Lang } from '@portfolio/contract/languages';

import { setLanguage } from '../react/use-lang';

type Strings = Record<Lang, Record<'lang.other' | 'lang.switch', string>>;

export default function LanguageSwitch({ strings }: { strings: Strings }) {
  const toggle = () => setLanguage(document.documentElement.lang === 'ar' ? 'en' : 'ar');
  return (
    <button type="button" className="lang-switch" onClick={toggle} data-language-switch>
      <span data-lang="en" lang="ar">
        {strings.en['lang.other']}
      </span>
      <span data-lang="ar" lang="en">
        {strings.ar['lang.other']}
      </span>
      <span className="visually-hidden">
        <span data-lang="en" lang="en">
          {' '}
          ({strings.en['lang.switch']})
        </span>
        <span data-lang="ar" lang="ar">
          {' '}
          ({strings.ar['lang.switch']})
        </span>
      </span>
    </button>
  );
}
