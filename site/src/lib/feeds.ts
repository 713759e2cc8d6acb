import rss, { type RSSFeedItem } from '@astrojs/rss';
import { escapeHtml as escapeAttr, fieldFormat, formattedHtml, type PlainLayout } from '@portfolio/contract/formatted-text';
import { DEFAULT_LANG, type Lang } from '@portfolio/contract/languages';
import { isSitePath } from '@portfolio/contract/rules';
import { textFor, type Translatable } from '@portfolio/contract/translations';

import { loadSite } from '../config/site';
import { type Key, t } from '../i18n';
import { api } from './api';
import { newsExcerpt } from './content';
import { escapeHtml, langPath, localHref, plainText } from './lang';

/**
 * Feed readers read an item's description as HTML once the XML is parsed, so an author's text goes
 * in escaped for HTML (the feed escapes it for XML again): `<script>` stays text in every reader.
 */
const descriptionText = (text: string) => escapeHtml(text);
/**
 * Some readers render a title as HTML too, others as plain text: escaping only `<` and `>` leaves no
 * element to make while `&` and quotes read the same in both.
 */
const titleText = (text: string) => text.replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * An item's whole text for `content:encoded`, as its page shows it (formatted text, plain paragraphs
 * as they always were) with every link and image absolute: a reader shows it away from the site.
 * Escaped for XML by the feed, like the description.
 */
/**
 * The newest items carry their whole text (what a reader fetches anew); older ones their summary
 * alone, so a feed of thousands of essays is not thousands of texts to render at each publish.
 */
const FULL_TEXT_ITEMS = 20;

function fullText(kind: 'essays' | 'news', item: Translatable, lang: Lang, layout: PlainLayout, siteUrl: URL): string {
  const text = textFor(kind, item, 'content', lang)?.text ?? '';
  const absolute = (path: string) => (isSitePath(path) ? new URL(localHref(lang, path), siteUrl).toString() : path);
  return formattedHtml(text, {
    format: fieldFormat(kind, 'content', item as { textFormat?: 'plain' | 'markdown' }),
    layout,
    href: absolute,
    image: ({ src, alt }) => `<img src="${escapeAttr(new URL(src, siteUrl).toString())}" alt="${escapeAttr(alt)}">`,
    footnotes: { heading: t(lang, 'text.footnotes'), backLabel: t(lang, 'text.footnoteBack') },
  });
}

/** XML 1.0 allows no control character but tab and line breaks: one from an import would make the feed unreadable. */
const xmlText = <T extends string | undefined>(text: T): T => text?.replace(/[^\P{Cc}\t\n\r]/gu, '') as T;

async function feed(fixed: Lang | null, words: { title: Key; description: Key }, given: RSSFeedItem[]) {
  const items = given.map((i) => ({ ...i, title: xmlText(i.title), description: xmlText(i.description), content: xmlText(i.content) }));
  const site = await loadSite();
  const lang = fixed ?? DEFAULT_LANG;
  return rss({
    title: t(lang, words.title, { author: site.author[lang] }),
    description: t(lang, words.description),
    site: site.url.toString(),
    // The site's addresses have no trailing slash (`trailingSlash: 'never'`): `/essays/3/` is no page.
    trailingSlash: false,
    ...(fixed ? { customData: `<language>${fixed}</language>` } : {}),
    items,
  });
}

/**
 * The essays feed of a page language (`fixed`: a language's own addresses, null for the
 * specification's, in the first language): each essay's version in that language (or its own text
 * when it has none), linking to that language's pages.
 */
export async function essaysFeed(fixed: Lang | null): Promise<Response> {
  const lang = fixed ?? DEFAULT_LANG;
  const essays = await api.essays();
  const { url } = await loadSite();
  return feed(
    fixed,
    { title: 'rss.essays.title', description: 'rss.essays.description' },
    essays.map((e, i) => ({
      title: titleText(plainText('essays', e, 'title', lang)),
      description: descriptionText(plainText('essays', e, 'excerpt', lang)),
      ...(i < FULL_TEXT_ITEMS ? { content: fullText('essays', e, lang, 'blank-lines', url) } : {}),
      link: langPath(lang, `/essays/${e.id}`),
      pubDate: new Date(e.publishedDate ?? e.createdAt),
    })),
  );
}

/** The news feed of a page language, as essaysFeed. */
export async function newsFeed(fixed: Lang | null): Promise<Response> {
  const lang = fixed ?? DEFAULT_LANG;
  const news = await api.news();
  const { url } = await loadSite();
  return feed(
    fixed,
    { title: 'rss.news.title', description: 'rss.news.description' },
    news.map((n, i) => ({
      title: titleText(plainText('news', n, 'title', lang)),
      description: descriptionText(newsExcerpt(plainText('news', n, 'excerpt', lang), plainText('news', n, 'content', lang))),
      link: langPath(lang, `/news/${n.id}`),
      ...(i < FULL_TEXT_ITEMS ? { content: fullText('news', n, lang, 'lines', url) } : {}),
      pubDate: new Date(n.publishedDate),
      categories: [n.category],
    })),
  );
}
