import { UPLOAD_FOLDERS } from '@portfolio/contract/types';

export interface SniffedType {
  mime: string;
  ext: string;
  kind: 'image' | 'pdf';
}

const JPEG: SniffedType = { mime: 'image/jpeg', ext: 'jpg', kind: 'image' };
const PNG: SniffedType = { mime: 'image/png', ext: 'png', kind: 'image' };
const GIF: SniffedType = { mime: 'image/gif', ext: 'gif', kind: 'image' };
const WEBP: SniffedType = { mime: 'image/webp', ext: 'webp', kind: 'image' };
const AVIF: SniffedType = { mime: 'image/avif', ext: 'avif', kind: 'image' };
const PDF: SniffedType = { mime: 'application/pdf', ext: 'pdf', kind: 'pdf' };

/** Every type an upload may have: what is stored, restored and served under /uploads/. */
export const UPLOAD_TYPES: readonly SniffedType[] = [JPEG, PNG, GIF, WEBP, AVIF, PDF];

const startsWith = (buf: Buffer, bytes: number[], offset = 0) => bytes.every((b, i) => buf[offset + i] === b);
const ascii = (buf: Buffer, start: number, end: number) => buf.subarray(start, end).toString('latin1');

/** How many leading bytes sniffFileType looks at. */
export const SNIFF_BYTES = 12;

/**
 * The file type decided by the file's bytes, never by its name or the browser's header.
 * Only raster images and PDF: no SVG or HTML, which a browser could run as a page.
 */
export function sniffFileType(buf: Buffer): SniffedType | null {
  if (buf.length < SNIFF_BYTES) return null;
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return JPEG;
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return PNG;
  if (ascii(buf, 0, 6) === 'GIF87a' || ascii(buf, 0, 6) === 'GIF89a') return GIF;
  if (ascii(buf, 0, 4) === 'RIFF' && ascii(buf, 8, 12) === 'WEBP') return WEBP;
  if (ascii(buf, 4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(buf, 8, 12))) return AVIF;
  if (ascii(buf, 0, 5) === '%PDF-') return PDF;
  return null;
}

/** The type a stored upload is served as, by the extension the server gave it from its bytes; null for any other name. */
export function storedFileType(name: string): SniffedType | null {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return name.includes('.') ? (UPLOAD_TYPES.find((t) => t.ext === ext) ?? null) : null;
}

/** The folders uploads are stored in (demo/ holds the demo content's images). */
export const STORED_FOLDERS: readonly string[] = [...UPLOAD_FOLDERS, 'demo'];

/**
 * A path under the uploads root as the server names files (`books/mf3k2a-0123456789abcdef-1200x800.jpg`,
 * `demo/cover-1-600x900.jpg`): a known folder, then lowercase letters, digits and dashes, then the
 * extension of an upload type.
 */
export function isStoredFilePath(filePath: string): boolean {
  const match = /^([a-z]+)\/([a-z0-9]+(?:-[a-z0-9]+)*)\.([a-z]+)$/.exec(filePath);
  return !!match && STORED_FOLDERS.includes(match[1]) && UPLOAD_TYPES.some((t) => t.ext === match[3]);
}
