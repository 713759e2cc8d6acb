import type { Lang } from '@portfolio/contract/languages';
import { isLang } from '@portfolio/contract/languages';
import { detectLanguage } from '@portfolio/contract/translations';

import type { SourceImageRef, SourceItem, SourceTranslation } from '../source.js';

const EXCERPT_LENGTH = 200;

/** A paragraph of the importer's Markdown as the text it shows (an excerpt is plain text). */
export function markdownParagraphText(paragraph: string): string {
  return paragraph
    .replace(/^ {0,3}(?:>[ \t]?)+/gm, '')
    .replace(/^ {0,3}(?:#{1,6}[ \t]+|[-*+][ \t]+|\d+[.)][ \t]+)/gm, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[\^\d+\]/g, '')
    .replace(/\[((?:\\.|[^\]\\])*)\]\([^)]*\)/g, '$1')
    .replace(/<((?:https?:\/\/|mailto:)?[^>\s]+)>/g, '$1')
    .replace(/(\\.)|[*_]+/g, (match, escaped: string | undefined) => escaped ?? '')
    .replace(/\\(.)/g, '$1');
}

/** The source's excerpt, else the first text paragraph shortened at a word. */
export function excerptOf(sourceExcerpt: string | null | undefined, content: string): string {
  const given = (sourceExcerpt ?? '').replace(/\s+/g, ' ').trim();
  if (given) return given;
  const first = content
    .split('\n\n')
    .filter((p) => !/^\[\^\d+\]:/.test(p))
    .map(markdownParagraphText)
    .find((p) => p.trim());
  if (!first) return '';
  const flat = first.replace(/\s+/g, ' ').trim();
  if (flat.length <= EXCERPT_LENGTH) return flat;
  const cut = flat.slice(0, EXCERPT_LENGTH);
  const space = cut.lastIndexOf(' ');
  return `${(space > EXCERPT_LENGTH / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–—-]+$/, '')}…`;
}

/** A declared language code ('ar', 'ar_SA', 'en-GB', 'Arabic') as one of the product's, or null. */
export function declaredLanguage(value: unknown): Lang | null {
  if (typeof value !== 'string') return null;
  const code = value.trim().toLowerCase();
  const base = code.split(/[-_]/)[0];
  if (isLang(base)) return base;
  if (code === 'arabic' || code === 'العربية') return 'ar';
  if (code === 'english') return 'en';
  return null;
}

export const languageOf = (declared: unknown, title: string, content: string): Lang =>
  declaredLanguage(declared) ?? detectLanguage(`${title}\n${content}`);

/** A source date as ISO 8601 UTC; a date without a zone is taken as UTC. Null when missing or not a date. */
export function isoDate(value: unknown): string | null {
  // A TOML date is a Date whose toISOString keeps its own offset: go through the time.
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : new Date(value.getTime()).toISOString();
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value).toISOString() : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!text || text.startsWith('0000-00-00')) return null;
  let normal = text;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) normal = `${text}T00:00:00Z`;
  else if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) normal = `${text.replace(' ', 'T')}Z`;
  // "Jul 08 2022" and other forms without a zone: read as UTC, not as the server's local time.
  const zoned = /(z|utc|gmt|[+-]\d{2}:?\d{2})$/i.test(normal) || normal !== text;
  const time = zoned ? Date.parse(normal) : Date.parse(`${text} UTC`) || Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

export const uniq = (values: string[]) => [...new Set(values.map((v) => v.trim()).filter(Boolean))];

export const translationOf = (item: SourceItem): SourceTranslation => ({
  sourceId: item.sourceId,
  title: item.title,
  excerpt: item.excerpt,
  content: item.content,
  images: item.images,
});

/**
 * Pairs the items of each group (same translation key): one stays an item, the others of another
 * language go into its `translations`. The one kept is the group's original when known, else the
 * one in the product's first language, else the first. Two of the same language stay apart.
 */
export function pairTranslations(
  items: SourceItem[],
  keyOf: (item: SourceItem) => string | null,
  isOriginal: (item: SourceItem) => boolean = () => false,
): SourceItem[] {
  const groups = new Map<string, SourceItem[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key) groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const absorbed = new Set<SourceItem>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const main = group.find(isOriginal) ?? group.find((i) => i.language === 'en') ?? group[0];
    for (const other of group) {
      if (other === main || other.language === main.language || main.translations[other.language]) continue;
      main.translations[other.language] = translationOf(other);
      absorbed.add(other);
    }
  }
  return items.filter((item) => !absorbed.has(item));
}

/** An image paragraph `![alt](ref)`; brackets and backslashes leave the alt text (they would end or escape its syntax). */
export const imageParagraph = (image: SourceImageRef) => `![${image.alt.replace(/[[\]\\]/g, '').trim()}](${image.ref})`;
