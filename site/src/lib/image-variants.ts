/**
 * WebP variants of images uploaded to the API (AVIF cost 10× the build time for little gain), made
 * with sharp into a cache folder kept between publishes (SITE_CACHE_DIR) and published as extra
 * output files of the render that shows them (render-context.ts), under `_astro/`.
 *
 * A variant's name comes from its source path, width, format and quality alone, so the same upload
 * always gives the same name and bytes, whichever render makes it. A variant already in the cache
 * is never made again; an image whose name carries its pixel size (`…-1200x800.jpg`, see
 * imageSizeFromName) then costs no request at all. Other images (older uploads, typed-in names) have
 * their size read from the file once per publish.
 *
 * What a page names depends on the upload alone, never on the moment it is read: an upload that is
 * not there (a 4xx answer) or not an image is shown as it is, and markup showing it so is never kept for a
 * later publish (render-context.ts keptMarkup); any other failure to read it (an error answer, no
 * answer, a full disk) fails the render, as a failed API read does, so a publish never goes live
 * with an original where a full export names its variant.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import {
  CARD_BACKGROUND,
  CARD_QUALITY,
  SHARE_CARD,
  shareCardFile,
  VARIANT_FORMAT,
  VARIANT_QUALITY,
  variantFile,
  variantHeight,
  variantWidths,
} from '@portfolio/contract/image-variants';
import { imagePath, imageSizeFromName } from '@portfolio/contract/rules';
import type { Sharp, SharpInput } from 'sharp';

import { api } from './api';
import { escapeHtml } from './lang';
import { once, recordFile, renderContext } from './render-context';

export const FORMAT = VARIANT_FORMAT;
/**
 * Originals downloaded and encoded at once across all renders of the process (two cores; libvips
 * threads within each). A download waits for its turn too: a list page first to show 2,000 new
 * uploads must not open 2,000 requests to the API at once, nor hold every original meanwhile.
 */
const PARALLEL_ENCODES = 2;

/**
 * The image library, loaded when the first new upload needs variants: most publishes make none, and
 * libvips costs the renderer about 20 MB of resident memory once loaded.
 */
let library: Promise<(input: SharpInput) => Sharp> | null = null;
function openImage(input: SharpInput): Promise<Sharp> {
  library ??= import('sharp').then(({ default: load }) => {
    // A renderer lives for many publishes: libvips' operation cache would only grow.
    load.cache(false);
    return load;
  });
  return library.then((load) => load(input));
}

export interface UploadVariants {
  /** The original's size in pixels. */
  width: number;
  height: number;
  type: string;
  srcset: string;
  /** The largest variant (the original's size at most). */
  largest: string;
}

export { SHARE_CARD, shareCardFile, variantFile, variantHeight, variantWidths };

/** Where variants are kept between publishes (SITE_CACHE_DIR/images). */
export const cacheFolder = () => path.resolve(process.env.SITE_CACHE_DIR ?? 'node_modules/.astro', 'images');

/** The upload itself has no variants (it is not there, or not an image): the page shows it as it is. */
class UnreadableUpload extends Error {}

/** Decoding what the API served: a failure is the file's own (UnreadableUpload). */
async function decoded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new UnreadableUpload(`not an image (${(error as Error).message})`);
  }
}

async function download(url: string): Promise<Buffer> {
  const res = await fetch(url);
  // A client error is the path's own (not there, refused); a server error, a time-out or a rate limit may pass.
  if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429)
    throw new UnreadableUpload(`GET ${url} answered ${res.status}`);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

async function pixelSize(bytes: Buffer): Promise<{ width: number; height: number }> {
  const meta = await decoded(async () => (await openImage(bytes)).metadata());
  if (!meta.width || !meta.height) throw new UnreadableUpload('no pixel size');
  // EXIF orientations 5–8 are turned a quarter: the picture shown is the other way round.
  return (meta.orientation ?? 1) >= 5 ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
}

let encoding = 0;
const waiting: (() => void)[] = [];
async function encodeSlot<T>(work: () => Promise<T>): Promise<T> {
  if (encoding >= PARALLEL_ENCODES) await new Promise<void>((resolve) => waiting.push(resolve));
  encoding++;
  try {
    return await work();
  } finally {
    encoding--;
    waiting.shift()?.();
    moved();
  }
}

/** The progress callbacks of the renders waiting for images (RenderRecord.progress), with how many waits each has. */
const waitingRenders = new Map<() => void, number>();
/** An image is done: every render waiting in the shared queue is still moving. */
function moved(): void {
  for (const progress of waitingRenders.keys()) progress();
}

/** Awaits `work` (images being made), telling the renderer meanwhile that this render is moving. */
async function waitForImages<T>(work: Promise<T>): Promise<T> {
  const progress = renderContext.getStore()?.progress;
  if (!progress) return work;
  waitingRenders.set(progress, (waitingRenders.get(progress) ?? 0) + 1);
  try {
    return await work;
  } finally {
    const left = waitingRenders.get(progress)! - 1;
    if (left) waitingRenders.set(progress, left);
    else waitingRenders.delete(progress);
  }
}

interface Variant {
  width: number;
  height: number;
  file: string;
  source: string;
  /** A share card (shareCardImage): JPEG, cut to its box; otherwise a WebP at the original's ratio. */
  card?: boolean;
}

/**
 * Makes the variants from the original, each written under a temporary name and linked into place.
 * A variant already in the cache is never replaced (its bytes are the same): a render may have
 * reported it and a publish be hard-linking it, and link(2) fails with ENOENT on a file that a
 * rename replaces meanwhile.
 */
async function makeVariants(url: string, variants: Variant[]): Promise<void> {
  await encodeSlot(async () => {
    const original = await download(url);
    await mkdir(path.dirname(variants[0].source), { recursive: true });
    for (const v of variants) await makeVariant(original, v);
  });
}

async function makeVariant(original: Buffer, v: Variant): Promise<void> {
  const bytes = await decoded(() =>
    openImage(original).then((image) => {
      const sized = image.rotate().resize(v.width, v.height, { fit: 'cover' });
      return (
        v.card ? sized.flatten({ background: CARD_BACKGROUND }).jpeg({ quality: CARD_QUALITY }) : sized.webp({ quality: VARIANT_QUALITY })
      ).toBuffer();
    }),
  );
  const tmp = `${v.source}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, bytes);
    await link(tmp, v.source).catch((error) => {
      if (error.code === 'EEXIST') return;
      // No hard links here: publishes then copy from the cache, which a rename does not disturb.
      if (error.code === 'EPERM' || error.code === 'ENOTSUP') return rename(tmp, v.source);
      throw error;
    });
  } finally {
    await rm(tmp, { force: true });
  }
}

/**
 * Makes the missing variants, each once per publish: one that another render is making already
 * (the same image at other widths, say) is waited for, the others are made together from one
 * download of the original. A failure is remembered for each variant (once).
 */
function makeOnce(url: string, missing: Variant[]): Promise<unknown> {
  const mine: Variant[] = [];
  let made: Promise<void> | undefined;
  // Started a tick later, once every variant this render makes itself is in `mine`.
  const make = () => (made ??= Promise.resolve().then(() => makeVariants(url, mine)));
  return Promise.all(
    missing.map((v) =>
      once(`variant ${v.file}`, () => {
        mine.push(v);
        return make();
      }),
    ),
  );
}

/**
 * Variants at the given widths (never wider than the original), with heights in the original's
 * ratio. Null when the upload is not there or not an image: a missing upload must not stop
 * publishing, the page then shows the original path (and its markup is not kept: RenderRecord.unkept).
 * Rejects when the upload cannot be read for now (see the top of this file).
 */
export async function uploadVariants(imagePath: string, widths: number[]): Promise<UploadVariants | null> {
  const url = api.base + imagePath;
  try {
    const size =
      imageSizeFromName(imagePath) ??
      (await waitForImages(once(`size ${url}`, () => encodeSlot(async () => pixelSize(await download(url))))));
    const folder = cacheFolder();
    const variants: Variant[] = variantWidths(size.width, widths).map((width) => {
      const file = variantFile(imagePath, width);
      return { width, height: variantHeight(width, size), file, source: path.join(folder, path.posix.basename(file)) };
    });
    const missing = variants.filter((v) => !existsSync(v.source));
    if (missing.length) await waitForImages(makeOnce(url, missing));
    for (const v of variants) recordFile(v.file, v.source);
    const largest = variants[variants.length - 1];
    return {
      width: size.width,
      height: size.height,
      type: `image/${FORMAT}`,
      srcset: variants.map((v) => `/${v.file} ${v.width}w`).join(', '),
      largest: `/${largest.file}`,
    };
  } catch (error) {
    return unreadable(imagePath, error);
  }
}

/** A failure to read an upload: null for the upload's own (see uploadVariants), else the render fails. */
function unreadable(imagePath: string, error: unknown): null {
  if (!(error instanceof UnreadableUpload))
    throw new Error(`Site build: the image ${imagePath} could not be read (${(error as Error).message}).`, { cause: error });
  console.warn(`Image variants skipped for ${imagePath}: ${error.message}`);
  const record = renderContext.getStore();
  if (record) record.unkept = true;
  return null;
}

/**
 * An upload cut to a share card (SHARE_CARD, cover: the middle of the picture kept), made once and
 * kept in the image cache like the other variants: its path, or null when the upload is not there or
 * not an image (the page then shares the site's card).
 */
export async function shareCardImage(imagePath: string): Promise<string | null> {
  const file = shareCardFile(imagePath);
  const card: Variant = { ...SHARE_CARD, file, source: path.join(cacheFolder(), path.posix.basename(file)), card: true };
  try {
    if (!existsSync(card.source)) await waitForImages(makeOnce(api.base + imagePath, [card]));
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
  widths?: number[];
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
  const variants = path.startsWith('/uploads/') ? await uploadVariants(path, widths) : null;
  const source = variants ? `<source type="${attr(variants.type)}" srcset="${attr(variants.srcset)}" sizes="${attr(sizes)}">` : '';
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
  return variants
    ? `<picture><source type="${attr(variants.type)}" srcset="${attr(variants.srcset)}" sizes="${attr(CONTENT_IMAGE_SIZES)}">${img}</picture>`
    : img;
}
