/**
 * The image variants of uploads (WebP widths and the share card, @portfolio/contract/image-variants):
 * the API makes them once when an upload arrives and keeps them in the uploads storage; a render
 * fetches the ones its page names into a cache folder kept between publishes (SITE_CACHE_DIR) and
 * publishes them as extra output files (render-context.ts), under `_astro/`. A publish never encodes.
 *
 * A variant's name and bytes come from its source path and width alone, so a variant in the cache is
 * never fetched again; an image whose name carries its pixel size (`…-1200x800.jpg`, see
 * imageSizeFromName) then costs no request at all. Other images (older uploads, typed-in names) have
 * their size read from the original once per publish.
 *
 * A variant the API does not have yet (404) makes the render ask the upload's state once per publish
 * (`GET /api/image-variants?path=`): while it is `pending` the page shows the original at its size
 * (no `<source>`, the site's share card) and records the read `image-variants/<id>`, so the targeted
 * publish that the finished job triggers re-renders exactly those pages; such markup is never kept
 * (render-context.ts keptMarkup). An upload that is not there, not an image (`failed`, no job) or
 * `done` with a variant still missing is shown as it is, its markup not kept either. Any other failure
 * to read (an error answer, no answer, a full disk) fails the render, as a failed API read does, so a
 * publish never goes live with an original where a full export names its variant.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import {
  SHARE_CARD,
  shareCardFile,
  storedVariantPath,
  VARIANT_FORMAT,
  variantFile,
  variantHeight,
  type VariantWidth,
  variantWidths,
} from '@portfolio/contract/image-variants';
import { imagePath, imageSizeFromName } from '@portfolio/contract/rules';
import pLimit from 'p-limit';

import { api, fetchGet } from './api';
import { escapeHtml } from './lang';
import { once, recordDep, recordFile, renderContext } from './render-context';

export const FORMAT = VARIANT_FORMAT;
/**
 * Downloads from the API at once across all renders of the process: a list page first to show 2,000
 * new uploads must not open thousands of requests to the API at once, nor hold every file meanwhile.
 */
const PARALLEL_DOWNLOADS = 4;
const downloadSlot = pLimit(PARALLEL_DOWNLOADS);

export interface UploadVariants {
  /** The original's size in pixels. */
  width: number;
  height: number;
  /** The WebP variants; null while the API is still making them (the page shows the original at its size). */
  webp: {
    type: string;
    srcset: string;
    /** The largest variant (the original's size at most). */
    largest: string;
  } | null;
}

export { SHARE_CARD, shareCardFile, variantFile, variantHeight, variantWidths };

/** Where variants are kept between publishes (SITE_CACHE_DIR/images). */
export const cacheFolder = () => path.resolve(process.env.SITE_CACHE_DIR ?? 'node_modules/.astro', 'images');

/** The upload itself has no variants (it is not there, or not an image): the page shows it as it is. */
class UnreadableUpload extends Error {}

/** A client error is the path's own (not there, refused); a server error, a time-out or a rate limit may pass. */
const ownFault = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

async function download(url: string): Promise<Buffer> {
  const res = await fetchGet(url);
  if (ownFault(res.status)) throw new UnreadableUpload(`GET ${url} answered ${res.status}`);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** The pixel size of an original (orientation applied): the only use of the image library left in a render. */
async function pixelSize(bytes: Buffer): Promise<{ width: number; height: number }> {
  const { default: sharp } = await import('sharp');
  // A renderer lives for many publishes: libvips' operation cache would only grow.
  sharp.cache(false);
  let meta;
  try {
    meta = await sharp(bytes).metadata();
  } catch (error) {
    throw new UnreadableUpload(`not an image (${(error as Error).message})`);
  }
  if (!meta.width || !meta.height) throw new UnreadableUpload('no pixel size');
  // EXIF orientations 5–8 are turned a quarter: the picture shown is the other way round.
  return (meta.orientation ?? 1) >= 5 ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
}

interface Variant {
  width: number;
  height: number;
  /** Its published path (`_astro/…`). */
  file: string;
  /** Its path in the cache folder. */
  source: string;
}

/**
 * Fetches a variant from the uploads storage into the cache, once per publish: true when it is there,
 * false when the API does not have it (yet). Written under a temporary name and linked into place; a
 * variant already in the cache is never replaced (its bytes are the same): a render may have reported
 * it and a publish be hard-linking it, and link(2) fails with ENOENT on a file that a rename replaces
 * meanwhile.
 */
function fetchVariant(stored: string, source: string, attempt = ''): Promise<boolean> {
  return once(`variant${attempt} ${stored}`, () =>
    downloadSlot(async () => {
      if (existsSync(source)) return true;
      let bytes: Buffer;
      try {
        bytes = await download(api.base + stored);
      } catch (error) {
        if (error instanceof UnreadableUpload) return false;
        throw error;
      }
      await mkdir(path.dirname(source), { recursive: true });
      const tmp = `${source}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        await writeFile(tmp, bytes);
        await link(tmp, source).catch((error) => {
          if (error.code === 'EEXIST') return;
          // No hard links here: publishes then copy from the cache, which a rename does not disturb.
          if (error.code === 'EPERM' || error.code === 'ENOTSUP') return rename(tmp, source);
          throw error;
        });
      } finally {
        await rm(tmp, { force: true });
      }
      return true;
    }),
  );
}

/**
 * Brings the variants of `imagePath` into the cache: true when all are there, false while the API
 * is still making them (the read `image-variants/<id>` recorded). Throws UnreadableUpload when the
 * upload will have none (its job failed, there is none, or it is done and a variant still missing).
 */
async function fetchVariants(imagePath: string, variants: Variant[]): Promise<boolean> {
  const stored = (v: Variant) => storedVariantPath(imagePath, v.file);
  const missing = variants.filter((v) => !existsSync(v.source));
  if (!missing.length) return true;
  // One first: while an upload's variants are being made, each publish asks for one of them, not all.
  const [first, ...rest] = missing;
  if (
    (await fetchVariant(stored(first), first.source)) &&
    (await Promise.all(rest.map((v) => fetchVariant(stored(v), v.source)))).every(Boolean)
  )
    return true;
  const job = await api.imageVariants(imagePath);
  if (job?.state === 'pending') {
    recordDep(`image-variants/${job.id}`);
    const record = renderContext.getStore();
    if (record) record.unkept = true;
    return false;
  }
  if (job?.state === 'done') {
    // Done since the first answer: the variants are all in the storage now.
    const again = await Promise.all(missing.map((v) => fetchVariant(stored(v), v.source, ' again')));
    if (again.every(Boolean)) return true;
    // Made by another recipe or set of widths: the API's backfill queues the job again, and its end re-renders this page.
    recordDep(`image-variants/${job.id}`);
  } else if (!job && (await originalStored(imagePath))) {
    // An upload the API has not queued yet (its backfill after an upgrade is still listing the storage):
    // the page waits for any job to end, as this one's id is not known yet.
    recordDep('image-variants');
  }
  throw new UnreadableUpload(job ? `its variants are ${job.state} but not all in the uploads storage` : 'the API has no variants of it');
}

/** Whether the original is in the uploads storage: only then will the API make its variants. */
function originalStored(imagePath: string): Promise<boolean> {
  return once(`original ${imagePath}`, () =>
    downloadSlot(async () => {
      const res = await fetchGet(api.base + imagePath, { method: 'HEAD' });
      if (ownFault(res.status)) return false;
      if (!res.ok) throw new Error(`HEAD ${imagePath} answered ${res.status}`);
      return true;
    }),
  );
}

/**
 * The original's pixel size and its variants at the given widths (never wider than the original), with
 * heights in the original's ratio; `webp` null while the API is still making them. Null when the upload
 * is not there or not an image: a missing upload must not stop publishing, the page then shows the
 * original path (and its markup is not kept: RenderRecord.unkept). Rejects when the upload cannot be
 * read for now (see the top of this file).
 */
export async function uploadVariants(imagePath: string, widths: readonly VariantWidth[]): Promise<UploadVariants | null> {
  const url = api.base + imagePath;
  try {
    const size =
      imageSizeFromName(imagePath) ?? (await once(`size ${url}`, () => downloadSlot(async () => pixelSize(await download(url)))));
    const folder = cacheFolder();
    const variants: Variant[] = variantWidths(size.width, widths).map((width) => {
      const file = variantFile(imagePath, width);
      return { width, height: variantHeight(width, size), file, source: path.join(folder, path.posix.basename(file)) };
    });
    if (!(await fetchVariants(imagePath, variants))) return { ...size, webp: null };
    for (const v of variants) recordFile(v.file, v.source);
    return {
      ...size,
      webp: {
        type: `image/${FORMAT}`,
        srcset: variants.map((v) => `/${v.file} ${v.width}w`).join(', '),
        largest: `/${variants[variants.length - 1].file}`,
      },
    };
  } catch (error) {
    return unreadable(imagePath, error);
  }
}

/** An error's message with its cause's (`fetch failed: other side closed`). */
const reason = (error: unknown): string => {
  const { message, cause } = error as Error;
  return cause instanceof Error ? `${message}: ${cause.message}` : message;
};

/** A failure to read an upload: null for the upload's own (see uploadVariants), else the render fails. */
function unreadable(imagePath: string, error: unknown): null {
  if (!(error instanceof UnreadableUpload))
    throw new Error(`Site build: the image ${imagePath} could not be read (${reason(error)}).`, { cause: error });
  console.warn(`Image variants skipped for ${imagePath}: ${error.message}`);
  const record = renderContext.getStore();
  if (record) record.unkept = true;
  return null;
}

/**
 * An upload's share card (SHARE_CARD, a JPEG the API cuts once), kept in the image cache like the
 * other variants: its path, or null when the upload has none (yet): the page then shares the site's card.
 */
export async function shareCardImage(imagePath: string): Promise<string | null> {
  const file = shareCardFile(imagePath);
  const card: Variant = { ...SHARE_CARD, file, source: path.join(cacheFolder(), path.posix.basename(file)) };
  try {
    if (!(await fetchVariants(imagePath, [card]))) return null;
    recordFile(card.file, card.source);
    return `/${card.file}`;
  } catch (error) {
    return unreadable(imagePath, error);
  }
}

export interface ImgOptions {
  src: string | null | undefined;
  alt: string;
  /** The box's intrinsic size, e.g. 600 × 900 for a book cover. */
  width: number;
  height: number;
  sizes: string;
  /** Widths of VARIANT_WIDTHS only: the API makes those (and the original's width where it is narrower). */
  widths?: readonly VariantWidth[];
  eager?: boolean;
}

const attr = (value: string | number) => escapeHtml(String(value));

/**
 * The markup of an image in a fixed-ratio box (width/height set: no layout shift), what
 * components/Img.astro renders: images uploaded to the API get their WebP variants as a <source>,
 * other URLs are used as they are; nothing for no image. A plain function, so a list page's cards
 * need no component instance per picture.
 */
export async function imgHtml({ src, alt, width, height, sizes, widths = [360, 720, 1080], eager = false }: ImgOptions): Promise<string> {
  const path = imagePath(src);
  if (!path) return '';
  const webp = path.startsWith('/uploads/') ? (await uploadVariants(path, widths))?.webp : null;
  const source = webp ? `<source type="${attr(webp.type)}" srcset="${attr(webp.srcset)}" sizes="${attr(sizes)}">` : '';
  const img = `<img src="${attr(path)}" alt="${attr(alt)}" width="${width}" height="${height}" loading="${eager ? 'eager' : 'lazy'}" decoding="async"${eager ? ' fetchpriority="high"' : ''}>`;
  return `<picture>${source}${img}</picture>`;
}

/** Sizes of a picture inside an essay's or news item's text (the text column is 70ch at most). */
export const CONTENT_IMAGE_SIZES = '(max-width: 760px) 100vw, 70ch';

/**
 * An image that is a paragraph of an essay or news text (`/uploads/…` only, see content.ts
 * contentImage): a figure with its WebP variants and the original's pixel size, or the upload as it
 * is when it cannot be read. Hidden with its figure when it fails to load, like every image box.
 */
export async function contentFigureHtml(src: string, alt: string): Promise<string> {
  return `<figure class="content-figure" data-image-box style="margin:1.5rem 0">${await contentPictureHtml(src, alt)}</figure>`;
}

/** The picture of contentFigureHtml without its figure: an image inside a line of formatted text. */
export async function contentPictureHtml(src: string, alt: string): Promise<string> {
  const variants = await uploadVariants(src, [360, 720, 1080]);
  const size = variants ? ` width="${variants.width}" height="${variants.height}"` : '';
  // Inline styles, as the pages' other image boxes: the shared stylesheet (and so every page) stays as it is.
  const img = `<img src="${attr(src)}" alt="${attr(alt)}"${size} loading="lazy" decoding="async" style="block-size:auto;border-radius:var(--radius)">`;
  return variants?.webp
    ? `<picture><source type="${attr(variants.webp.type)}" srcset="${attr(variants.webp.srcset)}" sizes="${attr(CONTENT_IMAGE_SIZES)}">${img}</picture>`
    : img;
}
