import type { Lang } from '@portfolio/contract/languages';
import type { MessageRef } from '@portfolio/contract/messages';

/** The same union as `ImportFormat` of `@portfolio/contract/imports` (kept here so the parsers build on their own). */
export type ImportFormat = 'wordpress' | 'ghost' | 'substack' | 'markdown';

export interface SourceText {
  title: string;
  excerpt: string;
  /** CommonMark Markdown (links, emphasis, headings, quotes, lists, footnotes `[^n]`); an inline image as its own paragraph `![alt](ref)` */
  content: string;
}

export interface SourceImageRef {
  /** an absolute http(s) URL, or a path inside the export archive */
  ref: string;
  alt: string;
}

export type SourceTranslation = SourceText & { sourceId: string; images: SourceImageRef[] };

export interface SourceItem extends SourceText {
  sourceId: string;
  type: 'post' | 'page';
  status: 'published' | 'draft' | 'scheduled';
  /** ISO 8601 UTC publication date (the scheduled time when scheduled) */
  date: string | null;
  slug: string | null;
  language: Lang;
  categories: string[];
  tags: string[];
  cover: SourceImageRef | null;
  /** inline images in order, each also referenced in `content` by its ref */
  images: SourceImageRef[];
  /** the other-language versions the source pairs with this one (WPML/Polylang, Ghost lang + slug, front matter translationKey) */
  translations: Partial<Record<Lang, SourceTranslation>>;
}

export interface ExportArchive {
  /**
   * a file inside the export's zip (or folder), or null when it is not there; a file larger than
   * `maxBytes` (declared, or found while it inflates) is refused before it is read whole
   */
  read(path: string, maxBytes?: number): Promise<Buffer | null>;
  close(): Promise<void>;
}

export interface ImportLimits {
  maxFileBytes: number;
  maxUncompressedBytes: number;
  maxEntries: number;
  maxItems: number;
  /** each XML, JSON, CSV, HTML or Markdown file of an archive, read whole into memory */
  maxTextBytes: number;
  maxImageBytes: number;
  imageTimeoutMs: number;
}

export interface ImportWarningText {
  title: string;
  message: string;
}

export interface ParsedExport {
  format: ImportFormat;
  items: SourceItem[];
  warnings: ImportWarningText[];
  archive: ExportArchive | null;
}

/** A file the import cannot read: `message` is one clear sentence for the author; `ref`, when given, its own message key (else `error.importRefused`). */
export class ImportFileError extends Error {
  constructor(
    message: string,
    readonly ref?: MessageRef,
  ) {
    super(message);
    this.name = 'ImportFileError';
  }
}

export { parseExport } from './parse/parse-export.js';
