/**
 * Importing an export of another blog (issue 26): the dry run's report, the mapping the author
 * chooses, and the import job the API keeps while it applies (GET it again to follow its progress).
 */
import type { Lang } from './languages.js';

export type ImportFormat = 'wordpress' | 'ghost' | 'substack' | 'markdown';
export type ImportAction = 'create' | 'update' | 'unchanged' | 'skip';
export const IMPORT_ACTIONS: readonly ImportAction[] = ['create', 'update', 'unchanged', 'skip'];

export interface ImportPlanItem {
  sourceId: string;
  title: string;
  kind: 'essays' | 'news' | null;
  action: ImportAction;
  /** Why skipped ("A page, not a post") — set when action is 'skip'. */
  reason: string | null;
  language: Lang;
  translations: Lang[];
  status: 'published' | 'draft' | 'scheduled';
  date: string | null;
  categories: string[];
  tags: string[];
  images: number;
}

export interface ImportWarning {
  title: string;
  message: string;
}

export interface ImportReport {
  format: ImportFormat;
  counts: Record<ImportAction, number>;
  items: ImportPlanItem[];
  warnings: ImportWarning[];
  /** What the mapping can choose from, with how many items carry each. */
  categories: { name: string; count: number }[];
  tags: { name: string; count: number }[];
}

/** Which source categories / tags make an item news (everything else that is a post: essays). */
export interface ImportMapping {
  newsCategories: string[];
  newsTags: string[];
}

export type ImportState = 'ready' | 'applying' | 'done' | 'failed';

/** An item the apply saved: what it became, created or updated. */
export interface ImportResult {
  sourceId: string;
  title: string;
  kind: 'essays' | 'news';
  id: number;
  action: 'create' | 'update';
}

export interface ImportJob {
  id: number;
  state: ImportState;
  format: ImportFormat;
  fileName: string;
  createdAt: string;
  finishedAt: string | null;
  mapping: ImportMapping;
  report: ImportReport;
  progress: { items: { done: number; total: number }; images: { done: number; total: number } };
  /** Warnings found while applying (an image that could not be fetched, …). */
  applyWarnings: ImportWarning[];
  /** What the apply saved so far, in the order it saved them (empty before it applies). */
  results: ImportResult[];
  error: string | null;
}
