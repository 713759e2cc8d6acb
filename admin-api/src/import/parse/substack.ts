import path from 'node:path';

import { parse as parseCsv } from 'csv-parse/sync';
import { decodeHTML } from 'entities';

import { ImportFileError, type ImportWarningText, type SourceItem } from '../source.js';
import type { ExportFiles } from './archive.js';
import { excerptOf, isoDate, languageOf } from './common.js';
import { htmlToMarkdown } from './html-text.js';

// Substack's own widgets in a post's HTML: subscribe and share buttons, not the author's text.
const SUBSTACK_WIDGETS = [
  'button-wrapper',
  'subscription-widget-wrap',
  'subscription-widget-wrap-editor',
  'captioned-button-wrap',
  'share-dialog',
];

/** The export's posts.csv when a `posts/` folder of HTML files sits beside it (Substack's export zip). */
export function findSubstackCsv(files: ExportFiles): string | null {
  const csv = files.names.filter((name) => path.posix.basename(name) === 'posts.csv').sort((a, b) => a.length - b.length)[0];
  if (!csv) return null;
  const dir = path.posix.dirname(csv) === '.' ? '' : `${path.posix.dirname(csv)}/`;
  return files.names.some((name) => name.startsWith(`${dir}posts/`) && name.endsWith('.html')) ? csv : null;
}

type Row = Record<string, string>;

function readRows(csv: Buffer): Row[] {
  try {
    return parseCsv(csv, { columns: true, bom: true, skip_empty_lines: true, trim: false }) as Row[];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new ImportFileError(`The Substack file posts.csv is not valid CSV${line ? ` (line ${line})` : ''}.`);
  }
}

const text = (value: string | undefined) => decodeHTML(value ?? '').trim();

/** A Substack export: posts.csv (one row per post) and `posts/<id>.<slug>.html`. */
export async function parseSubstack(files: ExportFiles, csvName: string): Promise<{ items: SourceItem[]; warnings: ImportWarningText[] }> {
  const csv = await files.readText(csvName);
  const rows = readRows(csv ?? Buffer.alloc(0));
  if (rows.length && !('post_id' in rows[0] && 'title' in rows[0]))
    throw new ImportFileError('The Substack file posts.csv has no post_id and title columns.');
  const dir = path.posix.dirname(csvName) === '.' ? '' : `${path.posix.dirname(csvName)}/`;
  const warnings: ImportWarningText[] = [];
  const items: SourceItem[] = [];
  const now = Date.now();
  for (const row of rows) {
    const postId = (row.post_id ?? '').trim();
    const title = text(row.title);
    const html = await files.readText(`${dir}posts/${postId}.html`);
    if (!html) {
      warnings.push({ title: title || postId, message: `Skipped: its text (posts/${postId}.html) is not in the export.` });
      continue;
    }
    const { content, images } = htmlToMarkdown(html.toString('utf8'), { dropClasses: SUBSTACK_WIDGETS });
    const date = isoDate(row.post_date);
    const published = /^true$/i.test((row.is_published ?? '').trim());
    const dot = postId.indexOf('.');
    const cover = (row.cover_image ?? row.cover_image_url ?? '').trim();
    items.push({
      sourceId: `substack:${dot > 0 ? postId.slice(0, dot) : postId}`,
      type: row.type === 'page' ? 'page' : 'post',
      status: !published ? 'draft' : date && Date.parse(date) > now ? 'scheduled' : 'published',
      date,
      slug: dot > 0 ? postId.slice(dot + 1) : null,
      title,
      excerpt: excerptOf(text(row.subtitle), content),
      content,
      language: languageOf(row.language, title, content),
      categories: [],
      tags: [],
      cover: /^https?:\/\//i.test(cover) ? { ref: cover, alt: '' } : null,
      images,
      translations: {},
    });
  }
  return { items, warnings };
}
