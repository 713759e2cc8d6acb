import { Parser } from 'htmlparser2';

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
  content: string;
  images: SourceImageRef[];
}

const BLOCKS = new Set(
  'p div section article header footer aside main nav h1 h2 h3 h4 h5 h6 li dt dd blockquote pre figure figcaption table tr thead tbody tfoot hr ul ol dl address details summary center'.split(
    ' ',
  ),
);
const DROPPED = new Set(
  'script style iframe noscript template svg object embed video audio canvas form button select textarea head title math'.split(' '),
);
// Stands for a line break inside a paragraph until the paragraph's spaces are collapsed.
const LINE = '\u2028';

const isWebUrl = (href: string) => /^https?:\/\//i.test(href);
const bare = (url: string) =>
  url
    .toLowerCase()
    .replace(/^(https?:\/\/|mailto:)/, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '');

const dropsByClass = (value: string | undefined, classes: string[]) => !!value && value.split(/\s+/).some((c) => classes.includes(c));

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

/** HTML as the product's plain paragraphs, with its images listed in order. */
export function htmlToText(html: string, options: HtmlTextOptions = {}): HtmlText {
  const paragraphs: string[] = [];
  const images: SourceImageRef[] = [];
  let current = '';
  let dropped = 0;
  let pre = 0;
  const links: { href: string; start: number; image: boolean }[] = [];

  const flush = () => {
    const text = current.includes(LINE)
      ? current
          .replace(/[^\S\u2028]+/g, ' ')
          .replace(/ *\u2028 */g, '\n')
          .replace(/^\n+|\n+$/g, '')
          .trim()
      : current.replace(/\s+/g, ' ').trim();
    if (text) paragraphs.push(text);
    current = '';
    for (const link of links) link.start = 0;
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (dropped || DROPPED.has(name) || (options.dropClasses && dropsByClass(attribs.class, options.dropClasses))) {
          dropped++;
          return;
        }
        if (BLOCKS.has(name)) flush();
        if (name === 'pre') pre++;
        if (name === 'br') current += LINE;
        if ((name === 'td' || name === 'th') && current.trim()) current += ' | ';
        if (name === 'a') links.push({ href: (attribs.href ?? '').trim(), start: current.length, image: false });
        if (name === 'img') {
          const src = (attribs.src || attribs['data-src'] || '').trim();
          const ref = src && !src.startsWith('data:') ? (options.resolveImage ? options.resolveImage(src) : src) : null;
          if (!ref) return;
          const image = { ref, alt: (attribs.alt ?? '').replace(/\s+/g, ' ').trim() };
          const open = links.at(-1);
          if (open) open.image = true;
          flush();
          paragraphs.push(imageParagraph(image));
          images.push(image);
        }
      },
      ontext(text) {
        if (dropped) return;
        if (pre) current += text.replace(/\r?\n/g, LINE);
        else if (options.autop && text.includes('\n')) {
          const parts = text.split(/\r?\n[ \t]*\r?\n\s*/);
          parts.forEach((part, index) => {
            if (index) flush();
            current += part.replace(/\r?\n/g, LINE);
          });
        } else current += text;
      },
      onclosetag(name) {
        if (dropped) {
          dropped--;
          return;
        }
        if (name === 'pre') pre = Math.max(0, pre - 1);
        if (name === 'a') {
          const link = links.pop();
          if (link) {
            const text = current.slice(link.start).replace(/\s+/g, ' ').trim();
            const href = link.href.startsWith('mailto:') ? link.href.slice(7) : link.href;
            const readable = isWebUrl(link.href) || link.href.startsWith('mailto:');
            if (readable && text && bare(text) !== bare(href)) current += ` (${href})`;
            else if (readable && !text && !link.image) current += href;
          }
        }
        if (BLOCKS.has(name)) flush();
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return { content: paragraphs.join('\n\n'), images };
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
