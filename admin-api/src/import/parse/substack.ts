import { ImportFileError, type ImportWarningText, type SourceItem } from '../source.js';
import type { ExportFiles } from './archive.js';

export const findSubstackCsv = (_files: ExportFiles): string | null => null;
export async function parseSubstack(_files: ExportFiles, _csv: string): Promise<{ items: SourceItem[]; warnings: ImportWarningText[] }> {
  throw new ImportFileError('Substack exports cannot be read yet.');
}
