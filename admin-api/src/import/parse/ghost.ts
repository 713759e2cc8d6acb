import { ImportFileError, type ImportWarningText, type SourceItem } from '../source.js';
import type { ExportFiles } from './archive.js';

export const isGhostExport = (_json: Buffer) => false;
export function parseGhostJson(_json: Buffer, _files: ExportFiles | null): { items: SourceItem[]; warnings: ImportWarningText[] } {
  throw new ImportFileError('Ghost exports cannot be read yet.');
}
export const parseGhost = (json: Buffer) => parseGhostJson(json, null);
