import { open, readFile, stat } from 'node:fs/promises';

import type { ImportLimits, ParsedExport } from '../source.js';
import { ImportFileError } from '../source.js';
import { type ExportFiles, openFolderArchive, openZipArchive } from './archive.js';
import { isGhostExport, parseGhost, parseGhostJson } from './ghost.js';
import { isMarkdownName, parseMarkdown } from './markdown.js';
import { findSubstackCsv, parseSubstack } from './substack.js';
import { parseWordpress, wxrBuffer, wxrFile } from './wordpress.js';

export const NOT_AN_EXPORT = 'This file is not an export this site can read (WordPress, Ghost, Substack or Markdown).';
const HEAD_BYTES = 64 * 1024;
const WXR_NAMESPACE = /xmlns:wp\s*=\s*["']https?:\/\/wordpress\.org\/export\//;

const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

async function readHead(filePath: string): Promise<Buffer> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** What a zip or folder holds, judged by its files: WXR files (WordPress.com zips them), Substack's posts.csv, a Ghost JSON, or Markdown with front matter. */
async function parseArchive(files: ExportFiles, limits: ImportLimits): Promise<ParsedExport> {
  const wxr: Buffer[] = [];
  for (const name of files.names.filter((n) => n.toLowerCase().endsWith('.xml'))) {
    const xml = await files.readText(name);
    if (xml && WXR_NAMESPACE.test(xml.subarray(0, HEAD_BYTES).toString('utf8'))) wxr.push(xml);
  }
  if (wxr.length) return { format: 'wordpress', ...(await parseWordpress(wxr.map(wxrBuffer))), archive: files };
  const csv = findSubstackCsv(files);
  if (csv) return { format: 'substack', ...(await parseSubstack(files, csv)), archive: files };
  for (const name of files.names.filter((n) => n.toLowerCase().endsWith('.json') && !n.includes('node_modules/'))) {
    const json = await files.readText(name);
    if (!json || json.length > limits.maxFileBytes || !isGhostExport(json)) continue;
    return { format: 'ghost', ...parseGhostJson(json, files), archive: files };
  }
  if (files.names.some(isMarkdownName)) {
    const parsed = await parseMarkdown(files);
    if (parsed.items.length) return { format: 'markdown', ...parsed, archive: files };
  }
  throw new ImportFileError(NOT_AN_EXPORT);
}

async function withArchive(files: ExportFiles, limits: ImportLimits): Promise<ParsedExport> {
  try {
    return await parseArchive(files, limits);
  } catch (error) {
    await files.close();
    throw error;
  }
}

async function detectAndParse(filePath: string, limits: ImportLimits): Promise<ParsedExport> {
  const info = await stat(filePath).catch(() => null);
  if (!info) throw new ImportFileError('The file could not be read.');
  if (info.isDirectory()) return withArchive(await openFolderArchive(filePath, limits), limits);
  if (info.size > limits.maxFileBytes)
    throw new ImportFileError(`The file is larger than ${mb(limits.maxFileBytes)}, the most an import may be.`);
  const head = await readHead(filePath);
  if (
    head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) ||
    head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  )
    return withArchive(await openZipArchive(filePath, limits), limits);
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (text.startsWith('<') && WXR_NAMESPACE.test(text))
    return { format: 'wordpress', ...(await parseWordpress([wxrFile(filePath)])), archive: null };
  if (text.startsWith('{')) {
    const json = await readFile(filePath);
    return { format: 'ghost', ...parseGhost(json), archive: null };
  }
  throw new ImportFileError(NOT_AN_EXPORT);
}

/** Reads an export (file or folder) whatever its name: the format is judged by the bytes and the structure. */
export async function parseExport(filePath: string, limits: ImportLimits): Promise<ParsedExport> {
  const parsed = await detectAndParse(filePath, limits);
  if (parsed.items.length > limits.maxItems) {
    await parsed.archive?.close();
    throw new ImportFileError(`The export holds ${parsed.items.length} items, more than the ${limits.maxItems} an import may have.`);
  }
  return parsed;
}
