/**
 * Build-time WebP variants of images uploaded to the API (AVIF cost 10× the build time for little
 * gain). Astro keeps variants in its cache dir between builds and fetches an original only to make
 * a variant it does not have, so an image whose name carries its pixel size
 * (`…-1200x800.jpg`, see imageSizeFromName) costs no request at all once its variants are cached.
 * Other images (older uploads, typed-in names) have their size read from the file once per build.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { getImage, inferRemoteSize } from 'astro:assets';
import { api } from './api';
import { imageSizeFromName } from '@portfolio/contract/rules';

/** Astro's cache of optimised images (set in astro.config.mjs from its cacheDir). */
declare const __SITE_IMAGE_CACHE__: string;

const FORMAT = 'webp';
const QUALITY = 70;

export interface UploadVariants {
  /** The original's size in pixels. */
  width: number;
  height: number;
  type: string;
  srcset: string;
  /** The largest variant (the original's size at most). */
  largest: string;
}

/** Network answers, asked once per build however many pages show the image. */
const once = new Map<string, Promise<unknown>>();
function memo<T>(key: string, make: () => Promise<T>): Promise<T> {
  if (!once.has(key)) once.set(key, make());
  return once.get(key) as Promise<T>;
}

/**
 * Names of originals that have variants in the cache. Astro writes a variant there only after it
 * fetched the original, and a server-made upload name always means the same bytes, so such a
 * file needs no new check.
 */
let cachedOriginals: Set<string> | undefined;
function inCache(imagePath: string): boolean {
  if (!cachedOriginals) {
    let files: string[] = [];
    try {
    files = readdirSync(__SITE_IMAGE_CACHE__);
  } catch {
    // no cache yet
  }
  cachedOriginals = new Set(files.filter((f) => f.endsWith('.json')).map((f) => f.slice(0, f.lastIndexOf('_'))));
}
return cachedOriginals.has(path.posix.basename(imagePath).replace(/\.[^.]+$/, ''));
}

/** A name can carry a size and still point at no file; a HEAD asks without downloading it. */
const reachable = (url: string) =>
memo(`head ${url}`, () =>
  fetch(url, { method: 'HEAD' }).then(
    (res) => res.ok,
    () => false,
  ),
);

/**
 * Variants at the given widths (never wider than the original), with heights in the original's
 * ratio. Null when the image cannot be read: a missing upload must not stop publishing, the page
 * then shows the original path.
 */
export async function uploadVariants(imagePath: string, widths: number[]): Promise<UploadVariants | null> {
  const src = api.base + imagePath;
  try {
    const named = imageSizeFromName(imagePath);
    // Astro downloads originals after the pages are rendered, where a missing file fails the
    // build; so before asking for variants, make sure the file is there (reading the size from
    // a file proves it too).
    if (named && !inCache(imagePath) && !(await reachable(src))) throw new Error(`${src} could not be fetched`);
    const size = named ?? (await memo(`size ${src}`, () => inferRemoteSize(src)));
    const targets = [...new Set(widths.map((w) => Math.min(w, size.width)))].sort((a, b) => a - b);
    const variants = await Promise.all(
      targets.map((w) => getImage({ src, width: w, height: Math.max(1, Math.round((w * size.height) / size.width)), format: FORMAT, quality: QUALITY })),
    );
    return {
      width: size.width,
      height: size.height,
      type: `image/${FORMAT}`,
      srcset: variants.map((v, i) => `${v.src} ${targets[i]}w`).join(', '),
      largest: variants[variants.length - 1].src,
    };
  } catch (error) {
    console.warn(`Image variants skipped for ${imagePath}: ${(error as Error).message}`);
    return null;
  }
}
