/**
 * The search UI, loaded only when a visitor opens search (client-focus.ts loads it on the
 * header box's first focus; the /search page when a ?q= link opens it or the visitor starts typing).
 * Plain DOM, no framework.
 * Every UI string is in both languages (given by the page), shown by <html lang> as
 * the rest of the page, so switching language needs no re-render.
 */
import type { Lang } from '@portfolio/contract/languages';

import { localPath } from '../../react/use-lang';
import { type Doc, type Hit, loadIndex, type Piece, search } from './engine';

type Strings = Record<Lang, Record<string, string>>;

const HEADER_LIMIT = 6;
const PAGE_LIMIT = 50;
const SETTLE_MS = 250;

/** The UI strings in both languages: the header island's props, or the /search page's JSON. */
let strings = {} as Strings;
/** The languages, in the list's order: the keys of the strings the page gives (i18n pick()). */
const languages = () => Object.keys(strings) as Lang[];
const dict = () => strings;

const fill = (text: string, vars: Record<string, string | number> = {}) =>
  text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
const currentLang = (): Lang => {
  const lang = document.documentElement.lang as Lang;
  return lang in strings ? lang : languages()[0];
};

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

/** A UI string in both languages (CSS shows the page's). */
function both(key: string, vars?: Record<string, string | number>): DocumentFragment {
  const f = document.createDocumentFragment();
  for (const lang of languages()) f.append(el('span', { 'data-lang': lang, lang }, fill(dict()[lang][key] ?? key, vars)));
  return f;
}

/** Plain text in the page's current language (for a live region, announced once). */
const text = (key: string, vars?: Record<string, string | number>) => fill(dict()[currentLang()]?.[key] ?? key, vars);

function pieces(list: Piece[]): DocumentFragment {
  const f = document.createDocumentFragment();
  for (const p of list) f.append(p.mark ? el('mark', {}, p.text) : p.text);
  return f;
}

/** A title in both languages: one span when they are the same text. */
function titleOf(hit: Hit): DocumentFragment {
  const f = document.createDocumentFragment();
  const [first, ...others] = languages();
  if (others.every((lang) => hit.doc.title[lang] === hit.doc.title[first])) f.append(el('span', { dir: 'auto' }, pieces(hit.title[first])));
  else for (const lang of languages()) f.append(el('span', { 'data-lang': lang, dir: 'auto' }, pieces(hit.title[lang])));
  return f;
}

const thumb = (doc: Doc) =>
  doc.image
    ? el('img', { src: doc.image, alt: '', loading: 'lazy', decoding: 'async', width: '64', height: '64' })
    : el('span', { class: 'search-thumb-empty', 'aria-hidden': 'true' });

/** On a language's own addresses (/ar/…) links lead to that language's addresses. */
const local = localPath;
const searchUrl = (query: string) => local(`/search?q=${encodeURIComponent(query)}`);

// ---------------------------------------------------------------------------------------------
// Header box: a combobox with a listbox of the best matches and a last option for all results.

export function enhanceHeaderSearch(form: HTMLFormElement, texts: Strings): void {
  if (form.dataset.enhanced) return;
  strings = texts;
  form.dataset.enhanced = 'true';
  const input = form.querySelector<HTMLInputElement>('input[name="q"]')!;
  const listId = `${input.id}-list`;
  const list = el('ul', { id: listId, role: 'listbox', class: 'search-popup', hidden: '' });
  const status = el('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite' });
  form.append(list, status);
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-expanded', 'false');
  input.setAttribute('aria-controls', listId);

  let options: { node: HTMLElement; href: string }[] = [];
  let active = -1;
  let docs: Doc[] | null = null;
  let settle = 0;

  const setActive = (i: number) => {
    options[active]?.node.setAttribute('aria-selected', 'false');
    active = i;
    const o = options[active];
    if (o) {
      o.node.setAttribute('aria-selected', 'true');
      input.setAttribute('aria-activedescendant', o.node.id);
      o.node.scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  };
  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    setActive(-1);
  };
  const announce = (message: string) => {
    window.clearTimeout(settle);
    settle = window.setTimeout(() => (status.textContent = message), SETTLE_MS);
  };
  const option = (id: string, href: string, ...children: Node[]) => {
    const node = el('li', { id, role: 'option', 'aria-selected': 'false', class: 'search-option' }, ...children);
    node.addEventListener('mousedown', (e) => e.preventDefault()); // keep focus in the input
    node.addEventListener('click', () => location.assign(href));
    options.push({ node, href });
    return node;
  };

  const render = () => {
    const query = input.value.trim();
    list.replaceChildren();
    options = [];
    active = -1;
    input.removeAttribute('aria-activedescendant');
    if (!docs || query.length < 2) {
      close();
      if (!docs && query.length >= 2) announce(text('search.loading'));
      return;
    }
    const { total, hits } = search(docs, query, HEADER_LIMIT);
    hits.forEach((hit, i) =>
      list.append(
        option(
          `${listId}-${i}`,
          local(hit.doc.path),
          thumb(hit.doc),
          el(
            'span',
            { class: 'search-option-text' },
            el('span', { class: 'search-option-title' }, titleOf(hit)),
            el('span', { class: 'search-kind' }, both(`search.kind.${hit.doc.kind}`)),
          ),
        ),
      ),
    );
    if (total === 0) list.append(el('li', { class: 'search-option-empty', role: 'presentation' }, both('search.empty', { query })));
    else list.append(option(`${listId}-all`, searchUrl(query), el('span', { class: 'search-option-all' }, both('search.all', { query }))));
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    announce(total ? text('search.count', { query, count: total }) : text('search.empty', { query }));
  };

  input.addEventListener('input', render);
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (list.hidden) render();
      if (!options.length) return;
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive(active < 0 ? (step > 0 ? 0 : options.length - 1) : (active + step + options.length) % options.length);
    } else if (e.key === 'Enter' && active >= 0) {
      e.preventDefault();
      location.assign(options[active].href);
    } else if (e.key === 'Escape') {
      if (!list.hidden) {
        e.preventDefault();
        close();
      } else if (input.value) input.value = '';
    }
  });
  form.addEventListener('focusout', (e) => {
    if (!form.contains(e.relatedTarget as Node | null)) close();
  });
  input.addEventListener('focus', () => {
    if (input.value.trim().length >= 2) render();
  });

  loadIndex().then(
    (loaded) => {
      docs = loaded;
      if (document.activeElement === input) render();
    },
    () => announce(text('search.error')),
  );
}

// ---------------------------------------------------------------------------------------------
// The /search page: results of ?q= (a shared link opens with them), updated as the visitor types.

export function initSearchPage(root: HTMLElement): void {
  strings = JSON.parse(root.querySelector('[data-search-strings]')?.textContent ?? '{}') as Strings;
  const form = root.querySelector<HTMLFormElement>('form')!;
  const input = form.querySelector<HTMLInputElement>('input[name="q"]')!;
  const status = root.querySelector<HTMLElement>('[data-search-status]')!;
  const results = root.querySelector<HTMLElement>('[data-search-results]')!;
  const more = root.querySelector<HTMLElement>('[data-search-more]')!;
  const lists = root.querySelector<HTMLElement>('[data-search-lists]');
  let docs: Doc[] | null = null;
  let failed = false;
  let settle = 0;

  const say = (node: Node) => status.replaceChildren(node);
  const render = (updateUrl: boolean) => {
    const query = input.value.trim();
    // The language switch of /ar/search (a link) leads to the same search in English.
    for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-language-switch]')) {
      const target = new URL(link.href, location.href);
      if (query) target.searchParams.set('q', query);
      else target.searchParams.delete('q');
      link.href = target.pathname + target.search;
    }
    if (updateUrl) {
      const url = new URL(location.href);
      if (query) url.searchParams.set('q', query);
      else url.searchParams.delete('q');
      history.replaceState(null, '', url);
    }
    results.replaceChildren();
    more.replaceChildren();
    const showLists = (show: boolean) => lists && (lists.hidden = !show);
    showLists(failed);
    if (failed) return say(both('search.error'));
    if (query.length < 2) return say(both('search.prompt'));
    if (!docs) return say(both('search.loading'));
    const { total, hits } = search(docs, query, PAGE_LIMIT);
    say(total ? both('search.count', { query, count: total }) : both('search.empty', { query }));
    showLists(total === 0);
    if (total > hits.length) more.append(both('search.more', { shown: hits.length }));
    for (const hit of hits)
      results.append(
        el(
          'li',
          { class: 'search-result' },
          thumb(hit.doc),
          el(
            'div',
            { class: 'search-result-body' },
            el('p', { class: 'search-kind' }, both(`search.kind.${hit.doc.kind}`)),
            el('h2', { class: 'search-result-title' }, el('a', { href: local(hit.doc.path) }, titleOf(hit))),
            ...(hit.excerpt.length ? [el('p', { class: 'search-result-excerpt', dir: 'auto' }, pieces(hit.excerpt))] : []),
          ),
        ),
      );
  };

  // What the visitor typed before this code arrived is kept (and put in the address).
  const fromUrl = new URL(location.href).searchParams.get('q') ?? '';
  const typed = input.value !== '' && input.value !== fromUrl;
  if (!typed) input.value = fromUrl;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    window.clearTimeout(settle);
    settle = 0;
    render(true);
  });
  input.addEventListener('input', () => {
    window.clearTimeout(settle);
    settle = window.setTimeout(() => {
      settle = 0;
      render(true);
    }, SETTLE_MS);
  });
  render(typed);
  loadIndex().then(
    (loaded) => {
      docs = loaded;
      // While the visitor is still typing, the settled query shows (not the half-typed one).
      if (!settle) render(false);
    },
    () => {
      failed = true;
      render(false);
    },
  );
}
