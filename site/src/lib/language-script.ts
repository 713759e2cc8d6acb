import { DEFAULT_LANG, LANGUAGE_INFO, LANGUAGES } from '@portfolio/contract/languages';

const others = LANGUAGES.filter((lang) => lang !== DEFAULT_LANG);
const rtl = LANGUAGES.filter((lang) => LANGUAGE_INFO[lang].dir === 'rtl');
const dir = rtl.length ? `${rtl.map((lang) => `l === '${lang}'`).join(' || ')} ? 'rtl' : 'ltr'` : `'ltr'`;

/**
 * The head script of the specification's addresses (layouts/BaseLayout.astro), written from the
 * language list: before first paint, the visitor's language sets lang, dir and the title.
 */
export const LANGUAGE_SCRIPT = `
      // Before first paint: the visitor's language (localStorage "language": ${LANGUAGES.join(' | ')}) sets lang and dir.
      (function () {
        var l;
        try { l = localStorage.getItem('language'); } catch (e) {}
        // A shared link can carry the language: ?lang=${others[0] ?? DEFAULT_LANG} (it is then remembered).
        var q = /[?&]lang=(${LANGUAGES.join('|')})(&|$)/.exec(location.search);
        if (q) { l = q[1]; try { localStorage.setItem('language', l); } catch (e) {} }
        if (${[...others, DEFAULT_LANG].map((lang) => `l !== '${lang}'`).join(' && ')}) l = '${DEFAULT_LANG}';
        var h = document.documentElement;
        h.lang = l;
        h.dir = ${dir};
        var t = h.getAttribute('data-title-' + l);
        if (t) document.title = t;
      })();
    `;
