import { createDocument } from '@mixmark-io/domino';
import { Parser } from 'htmlparser2';
import TurndownService from 'turndown';

import type { SourceImageRef } from '../source.js';
import { imageParagraph } from './common.js';

export interface HtmlTextOptions {
  /** WordPress classic content: a blank line in the text ends a paragraph and a single newline is a line break (wpautop). */
  autop?: boolean;
  /** Turns an image's src into its ref (absolute URL or archive path); null drops the image. */
  resolveImage?: (src: string) => string | null;
  /** Elements with one of these classes go with their content (a platform's subscribe buttons). */
  dropClasses?: string[];
}

export interface HtmlText {
  /** CommonMark: emphasis, links, headings, quotes, lists, footnotes; each inline image its own paragraph `![alt](ref)` */
  content: string;
  images: SourceImageRef[];
}

const BLOCKS = new Set(
  'p div section article header footer aside main nav h1 h2 h3 h4 h5 h6 li dt dd blockquote pre figure figcaption table tr thead tbody tfoot hr ul ol dl address details summary center'.split(
    ' ',
  ),
);
const DROPPED = new Set(
  'script style iframe noscript template svg object embed video audio canvas form button select textarea head title math input link meta'.split(
    ' ',
  ),
);

// The few DOM members used here (domino's nodes; the API is built without the DOM library).
interface DomElement {
  nodeName: string;
  textContent: string | null;
  parentNode: DomElement | null;
  children: ArrayLike<DomElement>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  closest(selector: string): DomElement | null;
  remove(): void;
  replaceWith(node: DomElement): void;
  ownerDocument: { createElement(name: string): DomElement };
}

const isLinkable = (href: string) => /^(https?:\/\/|mailto:)/i.test(href);
const bare = (url: string) =>
  url
    .toLowerCase()
    .replace(/^(https?:\/\/|mailto:)/, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '');
const destination = (href: string) => href.replace(/[\s()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

const dropsByClass = (value: string | null, classes: string[]) => !!value && value.split(/\s+/).some((c) => classes.includes(c));

/** WordPress shortcodes reduced to their text: `[caption …]<img …> Text[/caption]` keeps the image and the text; lone media shortcodes go. */
export function stripShortcodes(html: string): string {
  let text = html;
  for (let pass = 0; pass < 5; pass++) {
    const next = text.replace(/\[([a-zA-Z_][\w-]*)(?:\s[^\]]*)?\]([\s\S]*?)\[\/\1\]/g, '$2');
    if (next === text) break;
    text = next;
  }
  return text.replace(/\[(?:gallery|embed|audio|video|playlist|wp_caption|caption)(?:\s[^\]]*)?\/?\]/gi, '');
}

/** WordPress's wpautop, as far as the text needs it: in text outside tags and `<pre>`, a blank line ends a paragraph, a newline is a line break. */
function autop(html: string): string {
  let pre = 0;
  return html.replace(/(<[^>]*>)|([^<]+)/g, (match, tag: string | undefined) => {
    if (tag) {
      if (/^<pre[\s>]/i.test(tag)) pre++;
      else if (/^<\/pre\s*>/i.test(tag)) pre = Math.max(0, pre - 1);
      return tag;
    }
    if (pre || !match.includes('\n')) return match;
    return match.replace(/[ \t]*\r?\n[ \t]*\r?\n\s*/g, '<br data-paragraph>').replace(/[ \t]*\r?\n[ \t]*/g, '<br>');
  });
}

// A footnote's reference and its note, as WordPress (footnotes block), Ghost (markdown-it) and Substack write them.
const NOTE_ITEMS = 'ol.wp-block-footnotes > li[id], li.footnote-item[id], div.footnote';
const NOTE_CONTAINERS = 'ol.wp-block-footnotes, section.footnotes, hr.footnotes-sep';
const NOTE_BACKLINKS = 'a.footnote-backref, a.footnote-number, a[href^="#"][aria-label^="Jump to footnote"]';
const REFERENCES = 'sup[data-fn], sup.footnote-ref, a.footnote-anchor, sup > a[href^="#"]';

function noteId(note: DomElement): string | null {
  if (note.nodeName === 'DIV') return note.querySelector('a.footnote-number[id]')?.getAttribute('id') ?? null;
  return note.getAttribute('id');
}

function referenceTarget(reference: DomElement): string | null {
  const fn = reference.getAttribute('data-fn');
  if (fn) return fn;
  const link = reference.nodeName === 'A' ? reference : reference.querySelector('a[href^="#"]');
  return link?.getAttribute('href')?.slice(1) || null;
}

/** Lists with one space after the marker, preformatted text as lines, table rows as lines of cells. */
function addBlockRules(service: TurndownService) {
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => {
      const parent = node.parentNode as DomElement | null;
      let prefix = '- ';
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start')) || 1;
        prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      const body = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n/g, `\n${' '.repeat(prefix.length)}`);
      return `${prefix}${body.trimEnd()}${node.nextSibling ? '\n' : ''}`;
    },
  });
  service.addRule('preformatted', {
    filter: (node) => node.nodeName === 'PRE' && node.firstChild?.nodeName !== 'CODE',
    replacement: (content) => `\n\n${content.replace(/^\n+|\n+$/g, '').replace(/\n/g, '  \n')}\n\n`,
  });
  service.addRule('tableCell', {
    filter: ['td', 'th'],
    replacement: (content) => ` | ${content.replace(/\s+/g, ' ').trim()}`,
  });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content) => `\n\n${content.replace(/^\s*\|\s*/, '').trim()}\n\n`,
  });
}

/** A turndown service whose images and footnote references are collected as it converts. */
function converter(images: SourceImageRef[], options: HtmlTextOptions): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    hr: '---',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    emDelimiter: '*',
    strongDelimiter: '**',
  });
  const escape = service.escape.bind(service);
  // Besides turndown's own escapes: what CommonMark would read as a tag, an autolink or an entity.
  service.escape = (text: string) =>
    escape(text)
      .replace(/<(?=[a-zA-Z/!?])/g, '\\<')
      .replace(/&(?=#?[a-zA-Z0-9]+;)/g, '\\&');
  const isDropped = (node: TurndownService.Node) =>
    DROPPED.has(node.nodeName.toLowerCase()) || (!!options.dropClasses && dropsByClass(node.getAttribute('class'), options.dropClasses));
  service.addRule('dropped', { filter: isDropped, replacement: () => '' });
  service.addRule('paragraphBreak', {
    filter: (node) => node.nodeName === 'BR' && node.hasAttribute('data-paragraph'),
    replacement: () => '\n\n',
  });
  service.addRule('footnoteReference', {
    filter: (node) => node.nodeName === 'X-FOOTNOTE',
    replacement: (content) => `[^${content}]`,
  });
  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      // Turndown converts what a dropped element holds before dropping it: its pictures are not listed.
      for (
        let at = node.parentNode as TurndownService.Node | null;
        at && at.nodeType === 1;
        at = at.parentNode as TurndownService.Node | null
      )
        if (isDropped(at)) return '';
      const src = (node.getAttribute('src') || node.getAttribute('data-src') || '').trim();
      const ref = src && !src.startsWith('data:') ? (options.resolveImage ? options.resolveImage(src) : src) : null;
      if (!ref) return '';
      const image = { ref, alt: (node.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim() };
      images.push(image);
      // The text after the picture (or after the link around it) starts its own paragraph, without the space before it.
      let at: TurndownService.Node | null = node;
      while (at && !at.nextSibling && at.parentNode?.nodeName !== 'BODY') at = at.parentNode as TurndownService.Node | null;
      const next = at?.nextSibling;
      if (next?.nodeType === 3 && next.nodeValue) next.nodeValue = next.nodeValue.replace(/^\s+/, '');
      return `\n\n${imageParagraph(image)}\n\n`;
    },
  });
  service.addRule('link', {
    filter: 'a',
    replacement: (content, node) => {
      const href = (node.getAttribute('href') ?? '').trim();
      // A link around a picture keeps the picture alone; a link elsewhere than the web or mail keeps its text.
      if (!isLinkable(href) || node.querySelector('img') || content.includes('\n\n')) return content;
      if (!content.trim() || bare(content.replace(/\\(.)/g, '$1')) === bare(href))
        return /^mailto:/i.test(href) ? `<${href.slice(7)}>` : `<${destination(href)}>`;
      return `[${content}](${destination(href)})`;
    },
  });
  addBlockRules(service);
  return service;
}

/**
 * Footnotes: each reference becomes `[^n]`, numbered in the order the first reference to its note
 * appears, and each note a definition converted on its own. Parsed here only when the HTML may hold
 * footnotes (turndown parses the rest itself).
 */
function footnotes(service: TurndownService, html: string): { input: TurndownService.Node; definitions: string[] } {
  const body = (createDocument(`<body>${html}</body>`) as { body: DomElement }).body;
  const notes = new Map<string, DomElement>();
  for (const note of Array.from(body.querySelectorAll(NOTE_ITEMS))) {
    const id = noteId(note);
    if (id) notes.set(id, note);
    // A note keeps its text: its links back, and any picture (a paragraph of its own would end the note), go.
    for (const back of Array.from(note.querySelectorAll(`${NOTE_BACKLINKS}, img`))) back.remove();
  }
  const numbers = new Map<string, number>();
  if (notes.size) {
    for (const reference of Array.from(body.querySelectorAll(REFERENCES))) {
      const id = referenceTarget(reference);
      if (!id || !notes.has(id) || !reference.closest('body') || reference.closest(NOTE_ITEMS)) continue;
      if (!numbers.has(id)) numbers.set(id, numbers.size + 1);
      const marker = reference.ownerDocument.createElement('x-footnote');
      marker.textContent = String(numbers.get(id));
      reference.replaceWith(marker);
    }
  }
  const definitions: string[] = [];
  for (const [id, number] of numbers) {
    const text = service
      .turndown(notes.get(id) as unknown as TurndownService.Node)
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    if (text) definitions.push(`[^${number}]: ${text.replace(/\n/g, '\n    ').replace(/\n +\n/g, '\n\n')}`);
  }
  for (const element of Array.from(body.querySelectorAll(`${NOTE_CONTAINERS}, ${NOTE_ITEMS}`))) element.remove();
  return { input: body as unknown as TurndownService.Node, definitions };
}

/**
 * HTML as CommonMark Markdown, with its images listed in order: links to the web and mail stay links,
 * emphasis, headings, quotes and lists stay, footnotes become `[^n]` with their notes at the end; no
 * HTML is left (scripts, iframes and forms go with their content, other tags leave their text).
 */
export function htmlToMarkdown(html: string, options: HtmlTextOptions = {}): HtmlText {
  const images: SourceImageRef[] = [];
  const service = converter(images, options);
  const source = options.autop ? autop(html) : html;
  const { input, definitions } = /footnote|data-fn=/i.test(source)
    ? footnotes(service, source)
    : { input: source, definitions: [] as string[] };
  const text = service
    .turndown(input)
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t]+$/gm, (spaces) => (spaces === '  ' ? spaces : ''))
    .replace(/ {2}\n(?=\n)/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    // A rule before or after everything separates nothing.
    .replace(/^(?:---\n\n)+|(?:\n\n---)+$/g, '');
  const content = [text, ...definitions].filter(Boolean).join('\n\n');
  return { content, images };
}

/**
 * A title, a term's name or an excerpt written as HTML, as the text it shows: every tag goes and its
 * text stays, so `<svg onload=…> SVG title` is "SVG title" and an `<img>` is nothing (never image
 * syntax). A closed script or style goes with its code; an unclosed one keeps the text after it.
 */
export function htmlInlineText(html: string): string {
  let text = '';
  let code: string | null = null;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'script' || name === 'style') code = '';
        else if (BLOCKS.has(name) || name === 'br') text += ' ';
      },
      ontext(part) {
        if (code !== null) code += part;
        else text += part;
      },
      onclosetag(name, isImplied) {
        if ((name === 'script' || name === 'style') && code !== null) {
          if (isImplied) text += code;
          code = null;
        } else if (BLOCKS.has(name)) text += ' ';
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return text.replace(/\s+/g, ' ').trim();
}
