import { createHash } from 'node:crypto';

import type { TextFormat } from '@portfolio/contract/formatted-text';
import { IMPORT_ACTIONS, type ImportAction, type ImportMapping, type ImportPlanItem, type ImportReport } from '@portfolio/contract/imports';
import type { Lang } from '@portfolio/contract/languages';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';

import { CreateEssayDto } from '../essays/dto/create-essay.dto.js';
import { CreateNewsDto } from '../news/dto/create-news.dto.js';
import { NEWS_CATEGORIES, type NewsCategory } from '../news/news.entity.js';
import type { ImportedItem } from './imported-item.entity.js';
import type { ParsedExport, SourceImageRef, SourceItem } from './source.js';

export type ImportKind = 'essays' | 'news';

/** What a save of one item sets (images still as the export's references). */
export interface ItemFields {
  title: string;
  excerpt: string;
  content: string;
  publishedDate: Date | null;
  imageUrl: string | null;
  category: string | null;
  published: boolean;
  publishAt: Date | null;
  contentLanguage: Lang;
  translations: Partial<Record<Lang, { title: string; excerpt: string; content: string }>>;
  /** The parsers write Markdown (HTML through turndown, Markdown exports as they are). */
  textFormat: TextFormat;
}

export interface PlanEntry {
  item: SourceItem;
  plan: ImportPlanItem;
  /** What an earlier import saved from this source item. */
  record: ImportedItem | null;
  digest: string;
  /** Set for 'create' and 'update'. */
  fields: ItemFields | null;
}

/**
 * Whether an item an earlier import saved is still here. An unchanged source leaves a present item
 * alone whatever its format, so an admin's edits since the import are kept.
 */
export type ItemState = 'present' | 'trashed' | 'gone';

export const EMPTY_MAPPING: ImportMapping = { newsCategories: [], newsTags: [] };

/** Every image an item refers to (cover, inline, in its translations), each reference once. */
export function imageRefs(item: SourceItem): SourceImageRef[] {
  const all = [...(item.cover ? [item.cover] : []), ...item.images, ...Object.values(item.translations).flatMap((t) => t?.images ?? [])];
  const seen = new Set<string>();
  return all.filter((image) => !seen.has(image.ref) && seen.add(image.ref));
}

/** A source id as the database keeps it: ids longer than the column (deep Markdown paths) by their SHA-256. */
export function sourceKey(sourceId: string): string {
  return sourceId.length <= 255 ? sourceId : `sha256:${createHash('sha256').update(sourceId).digest('hex')}`;
}

/** The digest that tells a re-import whether a source item changed since it was imported. */
export function digestOf(item: SourceItem): string {
  return createHash('sha256').update(JSON.stringify(item)).digest('hex');
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function kindOf(item: SourceItem, mapping: ImportMapping): ImportKind {
  const news =
    item.categories.some((c) => mapping.newsCategories.some((m) => same(c, m))) ||
    item.tags.some((t) => mapping.newsTags.some((m) => same(t, m)));
  return news ? 'news' : 'essays';
}

/** A news category when a source category or tag obviously is one ("Awards" → award), else 'other'. */
function newsCategoryOf(item: SourceItem): NewsCategory {
  for (const name of [...item.categories, ...item.tags]) {
    const word = name.trim().toLowerCase().replace(/s$/, '');
    const match = NEWS_CATEGORIES.find((c) => c === word);
    if (match) return match;
  }
  return 'other';
}

/** WordPress files every post without a category under this one: not a category the author chose. */
const DEFAULT_CATEGORIES = new Set(['uncategorized', 'uncategorised']);

export function fieldsOf(item: SourceItem, kind: ImportKind): ItemFields {
  const date = item.date ? new Date(item.date) : null;
  const translations: ItemFields['translations'] = {};
  for (const [lang, text] of Object.entries(item.translations) as [Lang, SourceItem['translations'][Lang]][]) {
    if (!text || lang === item.language) continue;
    translations[lang] = { title: text.title, excerpt: text.excerpt, content: text.content };
  }
  const essayCategory = item.categories.find((c) => !DEFAULT_CATEGORIES.has(c.trim().toLowerCase()))?.slice(0, 100) ?? null;
  return {
    title: item.title,
    excerpt: item.excerpt,
    content: item.content,
    publishedDate: date,
    imageUrl: null,
    category: kind === 'news' ? newsCategoryOf(item) : essayCategory,
    published: item.status !== 'draft',
    publishAt: item.status === 'scheduled' ? date : null,
    contentLanguage: item.language,
    translations,
    textFormat: 'markdown',
  };
}

function firstProblem(errors: ValidationError[], prefix = ''): string | null {
  for (const error of errors) {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const message = Object.values(error.constraints ?? {})[0];
    if (message)
      return message.toLowerCase().includes(error.property.toLowerCase())
        ? message
        : `${field[0]!.toUpperCase()}${field.slice(1)}: ${message}`;
    const nested = firstProblem(error.children ?? [], field);
    if (nested) return nested;
  }
  return null;
}

/** The kind's own rules (the body a POST would be checked with): the first problem, or null. */
export async function validationProblem(fields: ItemFields, kind: ImportKind): Promise<string | null> {
  const body = {
    ...fields,
    publishedDate: fields.publishedDate?.toISOString() ?? null,
    publishAt: fields.publishAt?.toISOString() ?? null,
  };
  const dto = plainToInstance(kind === 'news' ? CreateNewsDto : CreateEssayDto, body);
  const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true });
  return firstProblem(errors);
}

const countsOf = (names: string[][]) => {
  const counts = new Map<string, number>();
  for (const list of names) for (const name of new Set(list)) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
};

/**
 * The dry run: what applying would do with each source item. `records` are the earlier imports of
 * this source by source id; `stateOf` says whether their items are still here.
 */
export async function planImport(
  parsed: Pick<ParsedExport, 'format' | 'items' | 'warnings'>,
  mapping: ImportMapping,
  records: Map<string, ImportedItem>,
  stateOf: (record: ImportedItem) => Promise<ItemState>,
): Promise<{ report: ImportReport; entries: PlanEntry[] }> {
  const entries: PlanEntry[] = [];
  for (const item of parsed.items) {
    const record = records.get(sourceKey(item.sourceId)) ?? null;
    const digest = digestOf(item);
    const plan: ImportPlanItem = {
      sourceId: item.sourceId,
      title: item.title,
      kind: null,
      action: 'skip',
      reason: null,
      language: item.language,
      translations: (Object.keys(item.translations) as Lang[]).filter((l) => l !== item.language && item.translations[l]),
      status: item.status,
      date: item.date,
      categories: item.categories,
      tags: item.tags,
      images: imageRefs(item).length,
    };
    const entry: PlanEntry = { item, plan, record, digest, fields: null };
    entries.push(entry);
    if (item.type === 'page') {
      plan.reason = 'A page, not a post';
      continue;
    }
    // An item keeps the kind it was first imported as: a changed mapping does not move it.
    const kind = record?.kind ?? kindOf(item, mapping);
    plan.kind = kind;
    const state = record ? await stateOf(record) : 'gone';
    if (state === 'trashed') {
      plan.reason = 'Imported before and now in the trash here: restore it to import it again';
      continue;
    }
    let action: ImportAction = state === 'gone' ? 'create' : record!.digest === digest && state === 'present' ? 'unchanged' : 'update';
    if (action !== 'unchanged') {
      const fields = fieldsOf(item, kind);
      const problem = await validationProblem(fields, kind);
      if (problem) {
        action = 'skip';
        plan.reason = problem;
      } else entry.fields = fields;
    }
    plan.action = action;
  }
  const counts = Object.fromEntries(IMPORT_ACTIONS.map((a) => [a, 0])) as Record<ImportAction, number>;
  for (const { plan } of entries) counts[plan.action]++;
  const posts = parsed.items;
  return {
    entries,
    report: {
      format: parsed.format,
      counts,
      items: entries.map((e) => e.plan),
      warnings: parsed.warnings,
      categories: countsOf(posts.map((i) => i.categories)),
      tags: countsOf(posts.map((i) => i.tags)),
    },
  };
}

// An image alone on its line, also inside a quote or a list item (`> ![alt](ref)`, `  ![alt](ref)`).
const IMAGE_LINE = /^([ \t>]*)!\[([^\]\n]*)\]\((.+)\)[ \t]*$/;

/**
 * The content with each inline image paragraph pointing at its stored copy; a paragraph whose image
 * could not be stored is dropped (no broken reference is kept).
 */
export function rewriteImages(content: string, stored: (ref: string) => string | null | undefined): string {
  const lines: string[] = [];
  let dropped = false;
  for (const line of content.split('\n')) {
    const match = IMAGE_LINE.exec(line);
    if (match) {
      const url = stored(match[3]!);
      dropped = !url;
      if (url) lines.push(`${match[1]}![${match[2]}](${url})`);
      else if (lines.length && !lines.at(-1)!.trim()) lines.pop();
      continue;
    }
    if (!(dropped && !line.trim() && !lines.length)) lines.push(line);
    dropped = false;
  }
  return lines.join('\n');
}
