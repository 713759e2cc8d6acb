import path from 'node:path';

import { isLang } from '@portfolio/contract/languages';
import { marked } from 'marked';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';

import type { ImportWarningText, SourceImageRef, SourceItem } from '../source.js';
import type { ExportFiles } from './archive.js';
import { declaredLanguage, excerptOf, isoDate, languageOf, pairTranslations, uniq } from './common.js';
import { htmlToMarkdown } from './html-text.js';

const MARKDOWN = /\.(md|mdx|markdown)$/i;
const NOT_CONTENT = /^(readme|license|licence|changelog|contributing|code_of_conduct|security)\.(md|markdown)$/i;
const LANG_SUFFIX = /\.([a-z]{2})$/i;

export const isMarkdownName = (name: string) => MARKDOWN.test(name) && !NOT_CONTENT.test(path.posix.basename(name));

type FrontMatter = Record<string, unknown>;

/** Splits YAML (`---`) or TOML (`+++`) front matter from the body; a broken block is a warning for that file. */
export function splitFrontMatter(text: string): { data: FrontMatter; body: string } | { error: string } | null {
  const source = text.replace(/^\uFEFF/, '');
  const fence = source.startsWith('---') ? '---' : source.startsWith('+++') ? '+++' : null;
  if (!fence) return null;
  const match = new RegExp(`^\\${fence[0]}{3}[ \\t]*\\r?\\n([\\s\\S]*?)\\r?\\n\\${fence[0]}{3}[ \\t]*(?:\\r?\\n|$)`).exec(source);
  if (!match) return { error: 'its front matter has no closing line.' };
  const body = source.slice(match[0].length);
  try {
    const data = fence === '---' ? parseYaml(match[1], { maxAliasCount: 100 }) : parseToml(match[1]);
    if (data === null || data === undefined) return { data: {}, body };
    if (typeof data !== 'object' || Array.isArray(data)) return { error: 'its front matter is not a list of fields.' };
    return { data: data as FrontMatter, body };
  } catch (error) {
    const line = (error as { linePos?: { line: number }[]; line?: number }).linePos?.[0]?.line ?? (error as { line?: number }).line;
    const kind = fence === '---' ? 'YAML' : 'TOML';
    return { error: `its front matter is not valid ${kind}${line ? ` (line ${line + 1})` : ''}.` };
  }
}

const str = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? value.trim() : typeof value === 'number' ? String(value) : null;

const list = (value: unknown, splitOnSpace = false): string[] => {
  if (Array.isArray(value)) return uniq(value.map((v) => str(v) ?? ''));
  const text = str(value);
  if (!text) return [];
  return uniq(text.split(splitOnSpace && !text.includes(',') ? /\s+/ : /,/));
};

const pick = (data: FrontMatter, ...keys: string[]) => keys.map((k) => data[k]).find((v) => v !== undefined && v !== null && v !== '');

/** Resolves a Markdown file's image reference to a URL or a path inside the archive; null when it points outside. */
function imageResolver(files: ExportFiles, fileName: string) {
  const dir = path.posix.dirname(fileName);
  return (src: string): string | null => {
    if (/^https?:\/\//i.test(src)) return src;
    if (src.startsWith('//')) return `https:${src}`;
    if (/^[a-z][a-z0-9+.-]*:/i.test(src)) return null;
    let clean = src.replace(/[?#].*$/, '');
    try {
      clean = decodeURI(clean);
    } catch {
      // keep it as written
    }
    if (clean.startsWith('/')) {
      // Site-absolute (Hugo `static/`, Jekyll's root, Astro `public/`): the file in the archive that ends with it.
      return files.names.find((n) => n.endsWith(clean)) ?? clean.slice(1);
    }
    const joined = path.posix.normalize(path.posix.join(dir, clean));
    return joined.startsWith('../') || joined === '..' ? null : joined;
  };
}

function coverOf(data: FrontMatter, resolve: (src: string) => string | null): SourceImageRef | null {
  const value = pick(data, 'image', 'cover', 'heroImage', 'hero_image', 'featured_image', 'featureImage', 'feature_image', 'thumbnail');
  let src: string | null = null;
  let alt = str(pick(data, 'imageAlt', 'image_alt', 'coverAlt', 'heroImageAlt')) ?? '';
  if (typeof value === 'string') src = value.trim();
  else if (value && typeof value === 'object') {
    const object = value as FrontMatter;
    src = str(pick(object, 'src', 'url', 'image', 'path'));
    alt = str(pick(object, 'alt', 'caption')) ?? alt;
  }
  const ref = src ? resolve(src) : null;
  return ref ? { ref, alt } : null;
}

/** The file's path from its content folder on (`_posts/…`, `content/…`), so a zip with or without a wrapping folder gives the same ids. */
function stablePath(name: string): string {
  const bare = name.replace(MARKDOWN, '');
  const at = Math.max(bare.lastIndexOf('_posts/'), bare.lastIndexOf('content/'));
  return at > 0 && bare[at - 1] !== '/' ? bare : bare.slice(Math.max(at, 0));
}

interface MarkdownFile {
  name: string;
  text: string;
}

/** One Markdown file with front matter as an item; null (with a warning) when it cannot be one. */
export function markdownItem(
  file: MarkdownFile,
  files: ExportFiles,
  warnings: ImportWarningText[],
  now: Date,
): { item: SourceItem; translationKey: string } | null {
  const parts = splitFrontMatter(file.text);
  if (!parts) {
    warnings.push({ title: file.name, message: 'Skipped: the file has no front matter (title, date), so it is not a post.' });
    return null;
  }
  if ('error' in parts) {
    warnings.push({ title: file.name, message: `Skipped: ${parts.error}` });
    return null;
  }
  const { data } = parts;
  const base = path.posix.basename(file.name).replace(MARKDOWN, '');
  if (base === '_index') return null; // a Hugo section's list page, not a post
  const suffix = LANG_SUFFIX.exec(base);
  const suffixLang = suffix ? declaredLanguage(suffix[1]) : null;
  const stem = suffixLang ? base.slice(0, -3) : base;
  const jekyll = /^(\d{4}-\d{2}-\d{2})-(.+)$/.exec(stem);
  const folderName = path.posix.basename(path.posix.dirname(file.name));
  // A folder per language (Astro's `blog/en/…` and `blog/ar/…`): the folder declares the language.
  const folders = path.posix.dirname(file.name).split('/');
  const folderLang = folders.map((f) => (isLang(f) ? f : null)).find(Boolean) ?? null;
  const pairFolder = folders.filter((f) => f !== folderLang).join('/');
  const fileSlug = stem === 'index' ? folderName : jekyll ? jekyll[2] : stem;

  const resolve = imageResolver(files, file.name);
  const body = file.name.toLowerCase().endsWith('.mdx') ? parts.body.replace(/^(import|export)\s.*$/gm, '') : parts.body;
  const html = marked.parse(body, { async: false, gfm: true });
  const { content, images } = htmlToMarkdown(html, { resolveImage: resolve });
  const title = str(pick(data, 'title', 'name')) ?? fileSlug;
  const date =
    isoDate(pick(data, 'date', 'pubDate', 'publishDate', 'published', 'publishedAt', 'created')) ?? (jekyll ? isoDate(jekyll[1]) : null);
  const draft = data.draft === true || data.published === false || data.status === 'draft';
  const kind = str(pick(data, 'type', 'layout'))?.toLowerCase();
  const item: SourceItem = {
    sourceId: `markdown:${str(pick(data, 'id', 'uuid')) ?? stablePath(file.name)}`,
    type: kind === 'page' ? 'page' : 'post',
    status: draft ? 'draft' : date && Date.parse(date) > now.getTime() ? 'scheduled' : 'published',
    date,
    slug: str(data.slug) ?? fileSlug,
    title,
    excerpt: excerptOf(str(pick(data, 'description', 'excerpt', 'summary', 'subtitle')), content),
    content,
    language: languageOf(pick(data, 'lang', 'language', 'locale') ?? suffixLang ?? folderLang, title, content),
    categories: [...list(data.categories, true), ...list(data.category)],
    tags: list(pick(data, 'tags', 'keywords'), true),
    cover: coverOf(data, resolve),
    images,
    translations: {},
  };
  // Without a translationKey, Hugo's `post.md` and `post.ar.md` side by side, or `en/post.md` and `ar/post.md`, are one post in two languages.
  return { item, translationKey: str(data.translationKey) ?? `${pairFolder}/${stem}` };
}

/** Markdown files with front matter (Jekyll `_posts`, Hugo `content/`, Astro content collections) in a zip or folder. */
export async function parseMarkdown(files: ExportFiles, now = new Date()): Promise<{ items: SourceItem[]; warnings: ImportWarningText[] }> {
  const warnings: ImportWarningText[] = [];
  const items: SourceItem[] = [];
  const keys = new Map<SourceItem, string>();
  for (const name of files.names.filter(isMarkdownName).sort()) {
    const buffer = await files.readText(name);
    if (!buffer) continue;
    const parsed = markdownItem({ name, text: buffer.toString('utf8') }, files, warnings, now);
    if (!parsed) continue;
    keys.set(parsed.item, parsed.translationKey);
    items.push(parsed.item);
  }
  return { items: pairTranslations(items, (item) => keys.get(item) ?? null), warnings };
}
