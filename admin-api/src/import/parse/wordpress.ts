import { ImportFileError, type ImportWarningText, type SourceItem } from '../source.js';

export async function parseWordpress(_filePath: string): Promise<{ items: SourceItem[]; warnings: ImportWarningText[] }> {
  throw new ImportFileError('WordPress exports cannot be read yet.');
}
