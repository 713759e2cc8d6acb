/**
 * Formatted text: how an essay's or news item's content and a book's or play's description turn into
 * what a reader sees, for every place that shows it (the site's pages and previews, RSS, newsletter
 * mails, the search index, excerpts and meta descriptions), so they never disagree.
 *
 * An item says how its texts are written (`textFormat`): 'plain', the specification's text and the
 * default of every item and every API client that does not say otherwise, renders exactly as it always
 * has (an essay, book or play description splits on blank lines, a news item on line breaks, a
 * paragraph that is only `![alt](/uploads/…)` is a picture); 'markdown' is CommonMark (marked, with
 * footnotes by marked-footnote) with the site's rules: raw HTML shown as text, links only to http(s),
 * mailto and the site's own paths (anything else is its text), external links marked, images only
 * from the site's uploads, headings from h2 down (the page has the h1).
 */
import { Marked, type Token, type Tokens } from 'marked';
import markedFootnote from 'marked-footnote';

import { type Lang, pathFor } from './languages.js';
import { isUploadPath, plainImage, type PlainLayout, plainParagraphs } from './plain-text.js';
import { isSitePath, isWebLink } from './rules.js';

export const TEXT_FORMATS = ['plain', 'markdown'] as const;
export type TextFormat = (typeof TEXT_FORMATS)[number];

export { isUploadPath, plainAsMarkdown, plainImage, type PlainLayout, plainParagraphs } from './plain-text.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

export interface TextImage {
  src: string;
  alt: string;
  /** Alone in its paragraph (a figure), or inside a line of text. */
  block: boolean;
}

export interface FormatOptions {
  format: TextFormat | null | undefined;
  layout: PlainLayout;
  /**
   * The markup of an upload image (the site's picture with its variants); null or absent leaves a
   * plain text's image paragraph as text, as book and play descriptions always showed it, and gives
   * a Markdown image a plain <img>.
   */
  image?: ((image: TextImage) => string | null) | null;
  /** Where an allowed link points once written (the page language's address, an absolute URL in a feed or mail). */
  href?: (href: string) => string;
  /** Marks ids (footnotes) so two versions of a text on one page do not share them, e.g. the version's language. */
  idPrefix?: string;
  /** The footnotes' heading for screen readers, and a back link's label ({0}: the note), in the reader's language. */
  footnotes?: { heading: string; backLabel: string };
}

// Never a blank or control character: browsers drop them, so `/\t/host` would be `//host`, another site.
const ALLOWED_LINK = (href: string) =>
  !/[\s\p{Cc}]/u.test(href) && (isWebLink(href) || isSitePath(href) || /^mailto:[^\s]+$/i.test(href) || /^#[\w-]+$/.test(href));
const isExternal = (href: string) => /^(https?:|mailto:)/i.test(href);

/** Every upload image a text shows (its pictures are made before the text is written out). */
export function textImages(text: string, options: Pick<FormatOptions, 'format' | 'layout'>): TextImage[] {
  if (options.format !== 'markdown') {
    return plainParagraphs(text, options.layout).flatMap((p) => {
      const image = plainImage(p);
      return image ? [{ ...image, block: true }] : [];
    });
  }
  const images: TextImage[] = [];
  walk(tokensOf(text), (token, parent) => {
    if (token.type === 'image' && isUploadPath((token as Tokens.Image).href))
      images.push({
        src: (token as Tokens.Image).href,
        alt: (token as Tokens.Image).text,
        block: (parent as { type?: string } | null)?.type === 'paragraph' && soleImage(parent) !== null,
      });
  });
  return images;
}

function lexer(options?: FormatOptions): Marked {
  const footnotes = options?.footnotes;
  // A news item is written a paragraph per line (the specification): in Markdown each line break shows.
  return new Marked({ gfm: true, breaks: options?.layout === 'lines' }).use(
    markedFootnote({
      prefixId: `${options?.idPrefix ?? ''}fn-`,
      description: escapeHtml(footnotes?.heading ?? 'Footnotes'),
      backRefLabel: escapeHtml(footnotes?.backLabel ?? 'Back to reference {0}'),
      headingClass: 'visually-hidden',
    }),
  );
}

/** The tokens of a Markdown text, its footnotes last (what marked-footnote's walkTokens does inside marked.parse). */
function lex(marked: Marked, text: string): Token[] {
  const tokens = marked.lexer(text) as Token[];
  // marked-footnote writes a note's label into ids and an aria-label as it is: only letters, digits,
  // `_` and `-` may stay (the same for a reference and its note), and never `label`, its heading's id.
  walk(tokens, (token) => {
    if (token.type !== 'footnoteRef' && token.type !== 'footnote') return;
    const t = token as Token & { label: string };
    t.label = t.label.replace(/[^\p{L}\p{N}_-]/gu, '-').replace(/^label$/, 'label-');
  });
  const at = tokens.findIndex((t) => t.type === 'footnotes');
  if (at >= 0) tokens.push(...tokens.splice(at, 1));
  return tokens;
}

/**
 * The tokens of the last few texts, for the read-only walks (pictures, plain text): a page asks for
 * the same text's pictures, words and HTML in turn. The HTML is made from tokens of its own, as
 * marked's parser may change the tokens it renders (task lists).
 */
const LEXED = new Map<string, Token[]>();
function tokensOf(text: string): Token[] {
  let tokens = LEXED.get(text);
  if (!tokens) {
    tokens = lex(lexer(), text);
    if (LEXED.size >= 8) LEXED.delete(LEXED.keys().next().value!);
    LEXED.set(text, tokens);
  }
  return tokens;
}

type Parent = { tokens?: Token[] } | null;

function walk(tokens: Token[], visit: (token: Token, parent: Parent) => void, parent: Parent = null): void {
  for (const token of tokens) {
    visit(token, parent);
    const t = token as Token & { tokens?: Token[]; items?: Token[]; content?: Token[] };
    if (t.tokens) walk(t.tokens, visit, t);
    if (t.items) walk(t.items, visit, t);
    if (t.content) walk(t.content, visit, t);
  }
}

/** The image a paragraph holds and nothing else (blanks aside), or null. */
function soleImage(paragraph: Parent): Tokens.Image | null {
  const inner = (paragraph?.tokens ?? []).filter((t) => !(t.type === 'text' && !t.raw.trim()));
  return inner.length === 1 && inner[0].type === 'image' ? (inner[0] as Tokens.Image) : null;
}

function topHeading(tokens: Token[]): number {
  let top = 6;
  walk(tokens, (t) => {
    if (t.type === 'heading') top = Math.min(top, (t as Tokens.Heading).depth);
  });
  return top;
}

/** The HTML of a text for a page or a feed: paragraphs (and, in Markdown, the rest) with no wrapper. */
export function formattedHtml(text: string, options: FormatOptions): string {
  const href = options.href ?? ((h: string) => h);
  if (options.format !== 'markdown') {
    return plainParagraphs(text, options.layout)
      .map((p) => {
        const image = options.image && plainImage(p);
        return (image && options.image!({ ...image, block: true })) ?? `<p>${escapeHtml(p)}</p>`;
      })
      .join('');
  }
  const marked = lexer(options);
  const tokens = lex(marked, text);
  const shift = 2 - topHeading(tokens);
  const image = (src: string, alt: string, block: boolean) =>
    (isUploadPath(src) && (options.image?.({ src, alt, block }) ?? `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}">`)) ||
    escapeHtml(alt);
  marked.use({
    renderer: {
      html: ({ text: raw }) => escapeHtml(raw),
      heading({ tokens: inline, depth }) {
        const level = Math.min(6, depth + shift);
        return `<h${level}>${this.parser.parseInline(inline)}</h${level}>\n`;
      },
      link({ href: target, title, tokens: inline }) {
        const inner = this.parser.parseInline(inline);
        if (!ALLOWED_LINK(target)) return inner;
        const external = isExternal(target);
        const attrs = `${title ? ` title="${escapeHtml(title)}"` : ''}${external ? ' class="external" rel="noopener"' : ''}`;
        return `<a href="${escapeHtml(external ? target : href(target))}"${attrs}>${inner}</a>`;
      },
      image: ({ href: src, text: alt }) => image(src, alt, false),
      paragraph({ tokens: inline }) {
        const sole = soleImage({ tokens: inline });
        if (sole && isUploadPath(sole.href) && options.image) {
          const block = options.image({ src: sole.href, alt: sole.text, block: true });
          if (block) return block;
        }
        return `<p>${this.parser.parseInline(inline)}</p>\n`;
      },
    },
  });
  return marked.parser(tokens).trim();
}

/**
 * The words of a text without any markup or Markdown syntax (search index, excerpts, meta
 * descriptions, reading time), paragraphs separated by blank lines. `keepAlt`: an image becomes its
 * alt text (worth finding in search), else nothing.
 */
export function formattedPlainText(text: string, format: TextFormat | null | undefined, keepAlt = false): string {
  if (format !== 'markdown')
    return text.replace(/^[ \t]*!\[([^\]\r\n]*)\]\([^()\s]+\)[ \t]*$/gm, (_, alt: string) => (keepAlt ? alt.trim() : ''));
  const blocks: string[] = [];
  const inline = (tokens: Token[]): string =>
    tokens
      .map((t) => {
        const any = t as Token & { tokens?: Token[]; text?: string };
        if (t.type === 'image') return keepAlt ? (t as Tokens.Image).text : '';
        if (t.type === 'br') return '\n';
        if (t.type === 'footnoteRef') return '';
        if (any.tokens) return inline(any.tokens);
        return t.type === 'escape' || t.type === 'codespan' || t.type === 'text' || t.type === 'html' ? decode(any.text ?? '') : '';
      })
      .join('');
  const block = (tokens: Token[]): void => {
    for (const t of tokens) {
      const any = t as Token & { tokens?: Token[]; items?: { tokens?: Token[]; content?: Token[] }[]; text?: string };
      if (t.type === 'paragraph' || t.type === 'heading') blocks.push(inline(any.tokens ?? []));
      else if (t.type === 'code') blocks.push(any.text ?? '');
      else if (t.type === 'text') blocks.push(inline(any.tokens ?? [t]));
      else if (t.type === 'blockquote') block(any.tokens ?? []);
      else if (t.type === 'list' || t.type === 'footnotes') for (const item of any.items ?? []) block(item.tokens ?? item.content ?? []);
      else if (t.type === 'table') blocks.push(decode(t.raw));
    }
  };
  block(tokensOf(text));
  return blocks
    .map((b) => b.trim())
    .filter(Boolean)
    .join('\n\n');
}

/** marked keeps entities escaped in its text tokens (`&amp;`, `&#39;`): the plain text is what a reader reads. */
const decode = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39|#(\d+)|#x([0-9a-f]+));/gi, (m, name: string, dec?: string, hex?: string) =>
    dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : (ESCAPES_BACK[name] ?? m),
  );
const ESCAPES_BACK: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/** The inline styles of a mail's formatted text (mail programs drop style sheets), by element. */
const MAIL_STYLES: Record<string, string> = {
  p: 'margin:0 0 16px;',
  h2: 'margin:24px 0 12px;font-size:22px;line-height:1.3;',
  h3: 'margin:20px 0 10px;font-size:19px;line-height:1.3;',
  h4: 'margin:16px 0 8px;font-size:17px;',
  h5: 'margin:16px 0 8px;font-size:17px;',
  h6: 'margin:16px 0 8px;font-size:17px;',
  blockquote: 'margin:0 0 16px;padding:0 16px;border-inline-start:3px solid #d8cbb8;color:#4a4a4a;',
  ul: 'margin:0 0 16px;padding-inline-start:24px;',
  ol: 'margin:0 0 16px;padding-inline-start:24px;',
  li: 'margin:0 0 4px;',
  a: 'color:#5b3a29;',
  img: 'max-width:100%;height:auto;border:0;',
  pre: 'white-space:pre-wrap;',
  section: 'font-size:14px;border-top:1px solid #e5ded3;margin-top:24px;',
  hr: 'border:0;border-top:1px solid #e5ded3;margin:24px 0;',
};

/**
 * A text as a mail shows it: every element styled inline, links and images absolute (`siteUrl`), in
 * its own language and direction (Arabic right to left).
 */
export function formattedMailHtml(
  text: string,
  options: Pick<FormatOptions, 'format' | 'layout' | 'footnotes'> & { siteUrl: string; lang: string; dir: 'ltr' | 'rtl'; reader?: Lang },
): string {
  const absolute = (path: string) => (isSitePath(path) ? `${options.siteUrl.replace(/\/$/, '')}${path}` : path);
  const html = formattedHtml(text, {
    format: options.format,
    layout: options.layout,
    footnotes: options.footnotes,
    // A link to a page of the site leads to it in the reader's language (`/ar/books` for an Arabic reader).
    href: (path) => absolute(options.reader && isSitePath(path) ? pathFor(options.reader, path) : path),
    image: ({ src, alt }) => `<img src="${escapeHtml(absolute(src))}" alt="${escapeHtml(alt)}">`,
  })
    // Footnote links point inside the mail; the visually-hidden heading has no style sheet to hide it.
    .replace(/<h2 id="[^"]*fn-label" class="visually-hidden">[^<]*<\/h2>\n?/, '')
    .replace(
      /<(p|h[2-6]|blockquote|ul|ol|li|a|img|pre|section|hr)(?=[\s>])/g,
      (tag, name: string) => `${tag} style="${MAIL_STYLES[name]}"`,
    );
  const align = options.dir === 'rtl' ? 'right' : 'left';
  return `<div lang="${escapeHtml(options.lang)}" dir="${options.dir}" style="text-align:${align};">${html}</div>`;
}

/** The field of each kind that may carry formatting (a play's content is its script, parsed on its own). */
export const FORMATTED_FIELD = { essays: 'content', news: 'content', books: 'description', plays: 'description' } as const;

/** The format a field of an item is written in: its item's `textFormat` for its formatted field, else plain. */
export function fieldFormat(kind: string, field: string, item: { textFormat?: TextFormat | null }): TextFormat {
  return (FORMATTED_FIELD as Record<string, string>)[kind] === field && item.textFormat === 'markdown' ? 'markdown' : 'plain';
}
