/**
 * The image variants of an upload: what the API makes once when an upload arrives (stored beside
 * the original in the uploads storage) and what the site's pages name and publish. One home, so the
 * maker (admin-api) and the pages (site) agree on every width and name.
 *
 * A variant's name comes from its source path, width, format, quality and recipe alone: the same
 * upload always gives the same names and bytes, whoever makes them.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';

/** Every width a page asks for (cards, item pages, the portrait, pictures in texts, search thumbnails, the gallery's full view). */
export const VARIANT_WIDTHS = [160, 240, 360, 400, 480, 720, 800, 1080, 1600] as const;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];

/** WebP: AVIF cost 10× the encode time for little gain. */
export const VARIANT_FORMAT = 'webp';
export const VARIANT_QUALITY = 70;
/** Changes whenever the way variants are made changes, so a variant made the old way is not reused. */
export const VARIANT_RECIPE = 'sharp-rotate-cover-1';

/** A share card's size (og:image): the large picture of Facebook's, X's and the messengers' link previews. */
export const SHARE_CARD = { width: 1200, height: 630 } as const;
/** JPEG, which every link preview reads (WebP is not read everywhere); a card is fetched once per share, not per visit. */
export const CARD_QUALITY = 82;
export const CARD_RECIPE = 'sharp-rotate-cover-flatten-jpeg-1';
/** The background a transparent picture gets on its share card (JPEG has no transparency). */
export const CARD_BACKGROUND = '#fbf7f0';

/** Where a site version publishes variants, beside Astro's own assets. */
const PUBLIC_FOLDER = '_astro';
/** Where the uploads storage keeps variants: `/uploads/_variants/<the original's folder>/<published name>`. */
export const STORED_VARIANTS_FOLDER = '_variants';

/** The widths to make: each asked width, never wider than the original, once each, smallest first. */
export function variantWidths(originalWidth: number, widths: readonly number[] = VARIANT_WIDTHS): number[] {
  return [...new Set(widths.map((w) => Math.min(w, originalWidth)))].filter((w) => w > 0).sort((a, b) => a - b);
}

/** A variant's height: the original's ratio, rounded, at least 1 pixel. */
export const variantHeight = (width: number, original: { width: number; height: number }) =>
  Math.max(1, Math.round((width * original.height) / original.width));

/** A published file's name begins with its source's: `/uploads/books/cover 1.jpg` → `cover-1`. */
const fileStem = (source: string) =>
  path.posix
    .basename(source)
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .slice(0, 60) || 'image';

/** The published path of a variant (no leading slash): `_astro/cover-1-600x900-360w.1a2b3c4d5e.webp`. */
export function variantFile(source: string, width: number): string {
  const hash = createHash('sha256')
    .update([VARIANT_RECIPE, source, width, VARIANT_FORMAT, VARIANT_QUALITY].join('\0'))
    .digest('hex')
    .slice(0, 10);
  return `${PUBLIC_FOLDER}/${fileStem(source)}-${width}w.${hash}.${VARIANT_FORMAT}`;
}

/** The published path of an upload's share card: `_astro/cover-1-1200x630.1a2b3c4d5e.jpg`. */
export function shareCardFile(source: string): string {
  const { width, height } = SHARE_CARD;
  const hash = createHash('sha256').update([CARD_RECIPE, source, width, height, CARD_QUALITY].join('\0')).digest('hex').slice(0, 10);
  return `${PUBLIC_FOLDER}/${fileStem(source)}-${width}x${height}.${hash}.jpg`;
}

/**
 * Where the uploads storage keeps a published variant of `source` (an `/uploads/<folder>/<name>`
 * path): `/uploads/_variants/<folder>/<the published file's name>`, served like any upload.
 */
export function storedVariantPath(source: string, publishedFile: string): string {
  const folder = path.posix.dirname(source).replace(/^\/uploads\/?/, '');
  return path.posix.join('/uploads', STORED_VARIANTS_FOLDER, folder, path.posix.basename(publishedFile));
}

/**
 * Every variant an upload gets, for an original of the given pixel size (orientation applied): the
 * WebP widths of VARIANT_WIDTHS (never wider than the original) and the share card.
 */
export function uploadVariantSet(source: string, original: { width: number; height: number }) {
  return [
    ...variantWidths(original.width).map((width) => ({
      kind: 'webp' as const,
      width,
      height: variantHeight(width, original),
      file: variantFile(source, width),
    })),
    { kind: 'card' as const, ...SHARE_CARD, file: shareCardFile(source) },
  ].map((v) => ({ ...v, stored: storedVariantPath(source, v.file) }));
}

/** An upload's variants as `GET /api/image-variants?path=` answers them. */
export interface ImageVariantsState {
  /** The job's id: a finished job is published as a change of kind `image-variants` with this id. */
  id: number;
  path: string;
  /** `pending`: not made yet (or being made); `done`: every variant is in the storage; `failed`: given up (not an image the encoder reads). */
  state: 'pending' | 'done' | 'failed';
}
