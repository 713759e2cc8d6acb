import { DEFAULT_LANG, type Lang, languageOfPath, LANGUAGES, unprefixedPath } from '@portfolio/contract/languages';
import type { PreviewPage, PreviewResponse } from '@portfolio/contract/types';
import { useState } from 'react';

import { Modal } from '../../components/modal';
import { tabPanelProps, Tabs } from '../../components/tabs';
import { nativeName, useI18n } from '../../i18n/i18n';

type PageRole = 'detail' | 'reviews' | 'list' | 'category' | 'home';
const IDS = 'ao-preview-pages';

// A category archive first: its slug may be a number (`/essays/category/2024`).
const roleOf = (path: string): PageRole =>
  path === '/'
    ? 'home'
    : /^\/[^/]+\/category\/[^/]+$/.test(path)
      ? 'category'
      : /\/\d+$/.test(path)
        ? 'detail'
        : /^\/book\/\d+\/reviews$/.test(path)
          ? 'reviews'
          : 'list';

const atHeadStart = (html: string, markup: string) =>
  /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}${markup}`) : markup + html;

/**
 * The page in the chosen language whatever the admin's own choice is: the site's pages read
 * `localStorage.language` before the first paint, and a preview frame shares the overlay's storage.
 * Inside the preview the choice lives in the page only (the page's own language switch still works);
 * the admin's stored choice is neither read nor changed.
 */
function pinLanguage(html: string, language: Lang): string {
  const script = `<script>(()=>{let l=${JSON.stringify(language)};try{const p=Storage.prototype,g=p.getItem,s=p.setItem;p.getItem=function(k){return k==='language'?l:g.call(this,k)};p.setItem=function(k,v){if(k==='language'){l=String(v);return}s.call(this,k,v)}}catch(e){}})()</script>`;
  return atHeadStart(html, script);
}

/** The page as a document of its own (a new tab): its addresses resolve against the site. */
function standalone(html: string): string {
  return atHeadStart(html, `<base href="${window.location.origin}/">`);
}

/**
 * The item's pages as the site will show them (rendered by the site's own templates with the
 * form's values), one at a time in a frame: which page, and which language. Links between the
 * previewed pages stay in the preview; other links open the live site in a new tab.
 */
export function PreviewModal({ preview, onClose }: { preview: PreviewResponse; onClose: () => void }) {
  const { t, lang } = useI18n();
  const rendered = preview.pages.filter((page) => page.status === 200 && page.html);
  const roles = [...new Set(rendered.map((page) => roleOf(unprefixedPath(page.path))))];
  const [role, setRole] = useState<PageRole>(roles[0] ?? 'detail');
  const [language, setLanguage] = useState<Lang>(lang);
  const pick = (r: PageRole, l: Lang): PreviewPage | undefined =>
    rendered.find((page) => roleOf(unprefixedPath(page.path)) === r && languageOfPath(page.path) === l) ??
    rendered.find((page) => roleOf(unprefixedPath(page.path)) === r);
  const page = pick(role, language);
  // A site without prefixed addresses shows every language on one page: the choice is then the page's language.
  const pageLanguage: Lang = page && languageOfPath(page.path) !== DEFAULT_LANG ? languageOfPath(page.path) : language;

  const followLinks = (frame: HTMLIFrameElement) => {
    const doc = frame.contentDocument;
    if (!doc) return;
    doc.addEventListener('click', (event) => {
      const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!link) return;
      const url = new URL(link.href, window.location.href);
      const target =
        url.origin === window.location.origin
          ? rendered.find((p) => p.path === url.pathname.replace(/\/+$/, '') || (p.path === '/' && url.pathname === '/'))
          : undefined;
      event.preventDefault();
      if (target) {
        setRole(roleOf(unprefixedPath(target.path)));
        setLanguage(languageOfPath(target.path));
      } else {
        window.open(url.href, '_blank', 'noopener');
      }
    });
  };

  const openInTab = () => {
    if (!page) return;
    const url = URL.createObjectURL(new Blob([standalone(pinLanguage(page.html, pageLanguage))], { type: 'text/html' }));
    window.open(url, '_blank', 'noopener');
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };

  return (
    <Modal title={t('preview.title')} onClose={onClose} size="full">
      <p className="ao-preview-note">{t('preview.note')}</p>
      {page ? (
        <>
          <div className="ao-preview-bar">
            <Tabs
              idPrefix={IDS}
              label={t('preview.pages')}
              items={roles.map((value) => ({ value, label: t(`preview.page.${value}`) }))}
              value={role}
              onChange={setRole}
            />
            <div className="ao-preview-langs" role="group" aria-label={t('preview.language')}>
              {LANGUAGES.map((l) => (
                <button
                  key={l}
                  type="button"
                  className="ao-button ao-button-small ao-button-ghost"
                  aria-pressed={language === l}
                  onClick={() => setLanguage(l)}
                  lang={l}
                >
                  {nativeName(l)}
                </button>
              ))}
            </div>
            <button type="button" className="ao-button ao-button-secondary ao-button-small" onClick={openInTab}>
              {t('preview.openInTab')}
            </button>
          </div>
          <div {...tabPanelProps(IDS, role)} className="ao-preview-panel">
            <iframe
              key={`${page.path} ${pageLanguage}`}
              className="ao-preview-frame"
              title={t('preview.frameTitle', { page: t(`preview.page.${role}`), path: page.path })}
              srcDoc={pinLanguage(page.html, pageLanguage)}
              onLoad={(event) => followLinks(event.currentTarget)}
            />
          </div>
        </>
      ) : (
        <p className="ao-preview-note">{t('preview.nothing')}</p>
      )}
    </Modal>
  );
}
