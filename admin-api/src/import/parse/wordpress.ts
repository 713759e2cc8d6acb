import { createReadStream } from 'node:fs';

import { SaxesParser } from 'saxes';

import { ImportFileError, type ImportWarningText, type SourceImageRef, type SourceItem } from '../source.js';
import { excerptOf, isoDate, languageOf, pairTranslations, uniq } from './common.js';
import { htmlInlineText, htmlToMarkdown, stripShortcodes } from './html-text.js';

interface RawItem {
  fields: Record<string, string>;
  categories: { domain: string; nicename: string; name: string }[];
  meta: Map<string, string>;
}

const FIELDS = new Set([
  'title',
  'link',
  'pubDate',
  'guid',
  'content:encoded',
  'excerpt:encoded',
  'wp:post_id',
  'wp:post_date',
  'wp:post_date_gmt',
  'wp:post_name',
  'wp:status',
  'wp:post_type',
  'wp:attachment_url',
]);
// Types WordPress makes for itself (menus, blocks, templates): never content to import, never worth a warning.
const SYSTEM_TYPES = new Set(
  'attachment nav_menu_item revision wp_block wp_navigation wp_template wp_template_part wp_global_styles custom_css customize_changeset oembed_cache user_request wp_font_family wp_font_face'.split(
    ' ',
  ),
);
const GROUP_DOMAINS = new Set(['post_translations', 'translation_group', 'trid']);
const LANGUAGE_META = ['_wpml_import_language_code', '_wpml_language', 'wpml_language'];
const GROUP_META = ['_wpml_import_translation_group', '_wpml_trid', 'trid'];

export const DOCTYPE_REFUSED =
  'The WordPress file declares a DOCTYPE, which is refused: its entities could read files from the server or grow without end.';

/** Reads the WXR file as a stream; DOCTYPEs are refused before any entity could be declared. */
async function readItems(source: AsyncIterable<string>): Promise<{ items: RawItem[]; baseUrl: string }> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const items: RawItem[] = [];
  let item: RawItem | null = null;
  let text = '';
  let meta: { key: string; value: string } | null = null;
  let category: { domain: string; nicename: string } | null = null;
  let comment = 0;
  let baseUrl = '';
  parser.on('doctype', () => {
    throw new ImportFileError(DOCTYPE_REFUSED);
  });
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    text = '';
    if (tag.name === 'item') item = { fields: {}, categories: [], meta: new Map() };
    else if (!item) return;
    else if (tag.name === 'wp:comment') comment++;
    else if (comment) return;
    else if (tag.name === 'wp:postmeta') meta = { key: '', value: '' };
    else if (tag.name === 'category')
      category = { domain: String(tag.attributes.domain ?? ''), nicename: String(tag.attributes.nicename ?? '') };
  });
  parser.on('text', (t) => (text += t));
  parser.on('cdata', (t) => (text += t));
  parser.on('closetag', (tag) => {
    const name = tag.name;
    if (!item) {
      if (name === 'wp:base_blog_url' || (name === 'link' && !baseUrl)) baseUrl = text.trim();
      return;
    }
    if (name === 'wp:comment') comment--;
    else if (comment) return;
    else if (name === 'item') {
      items.push(item);
      item = null;
    } else if (meta && name === 'wp:meta_key') meta.key = text.trim();
    else if (meta && name === 'wp:meta_value') meta.value = text;
    else if (meta && name === 'wp:postmeta') {
      item.meta.set(meta.key, meta.value);
      meta = null;
    } else if (category && name === 'category') {
      item.categories.push({ ...category, name: text });
      category = null;
    } else if (FIELDS.has(name)) item.fields[name] = text;
  });
  try {
    for await (const chunk of source) parser.write(chunk);
    parser.close();
  } catch (error) {
    throw error instanceof ImportFileError ? error : new ImportFileError(`The WordPress file is not valid XML (line ${parser.line}).`);
  }
  return { items, baseUrl: baseUrl.replace(/\/+$/, '') };
}

function absoluteUrl(src: string, baseUrl: string): string | null {
  if (/^https?:\/\//i.test(src)) return src;
  if (src.startsWith('//')) return `https:${src}`;
  if (src.startsWith('/') && baseUrl) return `${baseUrl}${src}`;
  return null;
}

function statusOf(raw: string): SourceItem['status'] | null {
  if (raw === 'publish') return 'published';
  if (raw === 'future') return 'scheduled';
  if (raw === 'draft' || raw === 'pending' || raw === 'private') return 'draft';
  return null;
}

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The footnotes block's notes (post meta `footnotes`, JSON) as WordPress shows them below the post. */
function footnotesHtml(json: string | undefined): string {
  let notes: unknown;
  try {
    notes = JSON.parse(json ?? '[]');
  } catch {
    return '';
  }
  if (!Array.isArray(notes)) return '';
  const items = notes
    .filter((n): n is { id: string; content: string } => typeof n?.id === 'string' && typeof n?.content === 'string')
    .map((n) => `<li id="${escapeAttribute(n.id)}">${n.content}</li>`);
  return items.length ? `<ol class="wp-block-footnotes">${items.join('')}</ol>` : '';
}

function toItem(raw: RawItem, baseUrl: string, attachments: Map<string, SourceImageRef>): SourceItem {
  const f = raw.fields;
  const resolveImage = (src: string) => absoluteUrl(src, baseUrl);
  const html = stripShortcodes(f['content:encoded'] ?? '') + footnotesHtml(raw.meta.get('footnotes'));
  // Block content is HTML already; wpautop is for classic content only, as WordPress does it.
  const { content, images } = htmlToMarkdown(html, { autop: !html.includes('<!-- wp:'), resolveImage });
  const title = htmlInlineText(f.title ?? '');
  const termsOf = (domain: string) => uniq(raw.categories.filter((c) => c.domain === domain).map((c) => htmlInlineText(c.name)));
  const polylang = raw.categories.find((c) => c.domain === 'language');
  const declared = polylang?.nicename ?? LANGUAGE_META.map((k) => raw.meta.get(k)).find(Boolean);
  let slug: string | null = (f['wp:post_name'] ?? '').trim() || null;
  try {
    slug = slug && decodeURIComponent(slug);
  } catch {
    // keep the slug as written
  }
  return {
    sourceId: `wordpress:${(f['wp:post_id'] ?? '').trim()}`,
    type: f['wp:post_type'] === 'page' ? 'page' : 'post',
    status: statusOf((f['wp:status'] ?? '').trim()) ?? 'draft',
    date: isoDate(f['wp:post_date_gmt']) ?? isoDate(f['wp:post_date']),
    slug,
    title,
    excerpt: excerptOf(htmlInlineText(f['excerpt:encoded'] ?? ''), content),
    content,
    language: languageOf(declared, title, content),
    categories: termsOf('category'),
    tags: termsOf('post_tag'),
    cover: attachments.get((raw.meta.get('_thumbnail_id') ?? '').trim()) ?? null,
    images,
    translations: {},
  };
}

/** A WXR file read as a stream of text. */
export const wxrFile = (filePath: string): AsyncIterable<string> =>
  createReadStream(filePath, { encoding: 'utf8', highWaterMark: 256 * 1024 });

/** A WXR file of a zip, already read within the zip's limits. */
export async function* wxrBuffer(buffer: Buffer): AsyncIterable<string> {
  yield buffer.toString('utf8');
}

/** A WordPress WXR export: posts and pages with their terms, featured images and WPML/Polylang translations. */
export async function parseWordpress(sources: AsyncIterable<string>[]): Promise<{ items: SourceItem[]; warnings: ImportWarningText[] }> {
  const raws: RawItem[] = [];
  let baseUrl = '';
  // WordPress.com splits a large site's export into several files of one zip.
  for (const source of sources) {
    const read = await readItems(source);
    raws.push(...read.items);
    baseUrl ||= read.baseUrl;
  }
  const warnings: ImportWarningText[] = [];
  const attachments = new Map<string, SourceImageRef>();
  for (const raw of raws) {
    if (raw.fields['wp:post_type'] !== 'attachment') continue;
    const url = absoluteUrl((raw.fields['wp:attachment_url'] ?? raw.fields.guid ?? '').trim(), baseUrl);
    if (url)
      attachments.set((raw.fields['wp:post_id'] ?? '').trim(), { ref: url, alt: (raw.meta.get('_wp_attachment_image_alt') ?? '').trim() });
  }
  const items: SourceItem[] = [];
  const groups = new Map<SourceItem, { key: string | null; original: boolean }>();
  for (const raw of raws) {
    const type = (raw.fields['wp:post_type'] ?? '').trim();
    const title = htmlInlineText(raw.fields.title ?? '') || `#${raw.fields['wp:post_id'] ?? ''}`;
    if (SYSTEM_TYPES.has(type)) continue;
    if (type !== 'post' && type !== 'page') {
      warnings.push({ title, message: `Skipped: its type "${type}" is neither a post nor a page.` });
      continue;
    }
    const status = (raw.fields['wp:status'] ?? '').trim();
    if (!statusOf(status)) {
      if (status === 'trash') warnings.push({ title, message: 'Skipped: it is in the WordPress trash.' });
      continue;
    }
    const item = toItem(raw, baseUrl, attachments);
    const group = raw.categories.find((c) => GROUP_DOMAINS.has(c.domain))?.nicename ?? GROUP_META.map((k) => raw.meta.get(k)).find(Boolean);
    const source = raw.meta.get('_wpml_import_source_language_code');
    groups.set(item, { key: group ? `${item.type}:${group.trim()}` : null, original: source !== undefined && !source.trim() });
    items.push(item);
  }
  return {
    items: pairTranslations(
      items,
      (item) => groups.get(item)?.key ?? null,
      (item) => groups.get(item)?.original ?? false,
    ),
    warnings,
  };
}
