import type { Lang } from '@portfolio/contract/languages';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';

import { ImportFileError, type ImportWarningText, type SourceImageRef, type SourceItem } from '../source.js';
import type { ExportFiles } from './archive.js';
import { declaredLanguage, excerptOf, isoDate, languageOf, pairTranslations, uniq } from './common.js';
import { lexicalToHtml, mobiledocToHtml } from './ghost-content.js';
import { htmlToMarkdown } from './html-text.js';

interface GhostPost {
  id?: string | number;
  uuid?: string;
  title?: string;
  slug?: string;
  html?: string | null;
  lexical?: string | null;
  mobiledoc?: string | null;
  plaintext?: string | null;
  feature_image?: string | null;
  type?: string;
  page?: boolean | number;
  status?: string;
  published_at?: string | number | null;
  custom_excerpt?: string | null;
  lang?: string | null;
  locale?: string | null;
  language?: string | null;
}
interface GhostTag {
  id: string | number;
  name?: string;
  visibility?: string;
}
interface GhostData {
  posts: GhostPost[];
  tags?: GhostTag[];
  posts_tags?: { post_id: string | number; tag_id: string | number; sort_order?: number }[];
  posts_meta?: { post_id: string | number; feature_image_alt?: string | null }[];
}

/** The `data` of a Ghost export: `{db: [{meta, data}]}` (Ghost 1–5), or `{meta, data}` as some tools write it. */
function ghostData(json: unknown): GhostData | null {
  if (!json || typeof json !== 'object') return null;
  const root = json as { db?: unknown; meta?: unknown; data?: unknown };
  const db = Array.isArray(root.db) ? (root.db[0] as { meta?: unknown; data?: unknown } | undefined) : root;
  const data = db && db.meta && db.data && typeof db.data === 'object' ? (db.data as Partial<GhostData>) : null;
  return data && Array.isArray(data.posts) ? (data as GhostData) : null;
}

function parseJson(buffer: Buffer): unknown {
  const text = buffer.toString('utf8').replace(/^\uFEFF/, '');
  try {
    return JSON.parse(text);
  } catch {
    // JSON.parse does not always say where; jsonc-parser (comments refused) finds the first error's offset.
    const errors: ParseError[] = [];
    parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false });
    const offset = errors.length ? errors[0].offset : text.length;
    throw new ImportFileError(`The Ghost export is not valid JSON (line ${text.slice(0, offset).split('\n').length}).`);
  }
}

export function isGhostExport(buffer: Buffer): boolean {
  try {
    return ghostData(JSON.parse(buffer.toString('utf8').replace(/^\uFEFF/, ''))) !== null;
  } catch {
    return false;
  }
}

const GHOST_URL = '__GHOST_URL__';

/** `__GHOST_URL__/content/images/…` as the file in the export's zip when it is there, else as that path (which the apply step reports missing). */
function imageResolver(files: ExportFiles | null) {
  return (src: string): string | null => {
    if (/^https?:\/\//i.test(src)) return src;
    if (src.startsWith('//')) return `https:${src}`;
    const path = (src.startsWith(GHOST_URL) ? src.slice(GHOST_URL.length) : src).replace(/[?#].*$/, '').replace(/^\/+/, '');
    if (!path || /^[a-z][a-z0-9+.-]*:/i.test(path)) return null;
    return files?.names.find((name) => name === path || name.endsWith(`/${path}`)) ?? path;
  };
}

const LANG_TAG = /^#(?:lang-)?([a-z]{2})$/i;

function bodyOf(post: GhostPost): string {
  if (post.html) return post.html;
  const fromSource = (post.lexical && lexicalToHtml(post.lexical)) || (post.mobiledoc && mobiledocToHtml(post.mobiledoc));
  if (fromSource) return fromSource;
  return (post.plaintext ?? '')
    .split(/\n{2,}/)
    .map((p) => `<p>${p.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`)
    .join('');
}

function statusOf(status: string | undefined): SourceItem['status'] | null {
  if (status === 'published' || status === 'sent') return 'published';
  if (status === 'scheduled') return 'scheduled';
  if (status === 'draft') return 'draft';
  return null;
}

/** A Ghost export (JSON, or a zip with the JSON and `content/images/…`): posts and pages, tags, feature images, languages. */
export function parseGhostJson(buffer: Buffer, files: ExportFiles | null): { items: SourceItem[]; warnings: ImportWarningText[] } {
  const data = ghostData(parseJson(buffer));
  if (!data) throw new ImportFileError('This file is not an export this site can read (WordPress, Ghost, Substack or Markdown).');
  const warnings: ImportWarningText[] = [];
  const tags = new Map((data.tags ?? []).map((tag) => [String(tag.id), tag]));
  const tagsOf = new Map<string, { tag: GhostTag; order: number }[]>();
  for (const link of data.posts_tags ?? []) {
    const tag = tags.get(String(link.tag_id));
    if (!tag) continue;
    const list = tagsOf.get(String(link.post_id)) ?? [];
    list.push({ tag, order: link.sort_order ?? list.length });
    tagsOf.set(String(link.post_id), list);
  }
  const altOf = new Map((data.posts_meta ?? []).map((meta) => [String(meta.post_id), meta.feature_image_alt ?? '']));
  const resolveImage = imageResolver(files);
  const items: SourceItem[] = [];
  for (const post of data.posts) {
    const title = (post.title ?? '').trim();
    const status = statusOf(post.status);
    if (!status) {
      warnings.push({ title, message: `Skipped: its status "${post.status ?? ''}" is not published, scheduled or draft.` });
      continue;
    }
    const id = String(post.id ?? post.uuid ?? '');
    const postTags = (tagsOf.get(id) ?? []).sort((a, b) => a.order - b.order).map((t) => t.tag);
    const internal = postTags.filter((t) => t.visibility === 'internal' || (t.name ?? '').startsWith('#'));
    const tagLang = internal.map((t) => LANG_TAG.exec(t.name ?? '')?.[1]).find((code) => declaredLanguage(code));
    const { content, images } = htmlToMarkdown(bodyOf(post), { resolveImage });
    const coverRef = post.feature_image ? resolveImage(post.feature_image) : null;
    const cover: SourceImageRef | null = coverRef ? { ref: coverRef, alt: (altOf.get(id) ?? '').trim() } : null;
    items.push({
      sourceId: `ghost:${id}`,
      type: post.type === 'page' || post.page === true || post.page === 1 ? 'page' : 'post',
      status,
      date: isoDate(post.published_at),
      slug: post.slug?.trim() || null,
      title,
      excerpt: excerptOf(post.custom_excerpt, content),
      content,
      language: languageOf(post.lang ?? post.locale ?? post.language ?? tagLang, title, content),
      categories: [],
      tags: uniq(postTags.filter((t) => !internal.includes(t)).map((t) => t.name ?? '')),
      cover,
      images,
      translations: {},
    });
  }
  // Ghost has no translations of its own: the same slug, or the slug with the language appended (`post` and `post-ar`), in another language.
  const keyOf = (item: SourceItem) => {
    const slug = item.slug ?? '';
    const suffix = `-${item.language satisfies Lang}`;
    return `${item.type}:${slug.endsWith(suffix) ? slug.slice(0, -suffix.length) : slug}`;
  };
  return { items: pairTranslations(items, (item) => (item.slug ? keyOf(item) : null)), warnings };
}

export const parseGhost = (buffer: Buffer) => parseGhostJson(buffer, null);
