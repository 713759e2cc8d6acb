// A copy of the live site that works without the product: from any static host or from a folder
// opened with file:// (a USB stick). Used by `npm run export-site` (infra/export-site.mjs) and by the
// overlay's 'Download the site' (GET /api/admin/site-export). Node only.
//
// What the copy is, from the live folder the builder publishes ($VAR_DIR/site/live):
// - every page `x/y.html` becomes `x/y/index.html` (a folder per address, as static hosts serve
//   them); the home page and 404.html stay where they are; feeds, sitemap and assets keep their names;
// - every address inside the site (`/books/3`, `/_astro/…`, `/uploads/…`) is made relative to the
//   page (`../../books/index.html`), so the folder works wherever it is put; with a base URL it is made
//   absolute under it instead (`https://mirror.example/books/3/`), and so are the canonical and
//   sharing addresses, the sitemap and the feeds;
// - the uploads the pages refer to are copied under `uploads/` (nothing a visitor cannot already see:
//   drafts' and deleted items' files stay out);
// - the Admin button is left out (a copy has no API to sign in to) and the contact form is replaced
//   by a note, in every language, that messages cannot be sent from the copy;
// - the language switch also works where the page's scripts cannot load (Chromium refuses module
//   scripts on file://): a small classic script switches to the next language of the list (the island's toggle,
//   with two), and a
//   gallery picture opens its original at full size instead of the lightbox.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, readdir, readFile, realpath, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

import { dirOf, type Lang, LANGUAGES } from '@portfolio/contract/languages';

import { zipChunks, type ZipEntry } from './zip.js';

export interface SiteExportOptions {
  /** The live site folder (a symlink to a build is followed once, at the start). */
  siteDir: string;
  /** Where uploaded files are (`$VAR_DIR/uploads`). */
  uploadsDir: string;
  /** Absolute http(s) URL the copy will be served from; unset: relative addresses. */
  baseUrl?: string | null;
  /**
   * Reads an upload by its path under /uploads/ (null when there is none) in place of `uploadsDir`:
   * the API passes its file storage here when uploads live in an S3 bucket.
   */
  readUpload?: (relative: string) => Promise<Buffer | null>;
}

export interface SiteExportSummary {
  /** HTML pages in the copy. */
  pages: number;
  /** All files in the copy (pages, assets, image variants, uploads). */
  files: number;
  /** Uploaded files copied. */
  uploads: number;
  /** Upload addresses the pages name that the uploads folder does not have (their links stay broken, as on the live site). */
  missingUploads: string[];
  /** Bytes of all files (uncompressed). */
  bytes: number;
}

/** The live folder has no site yet (the first build has not finished) or is not a site. */
export class SiteNotBuiltError extends Error {
  constructor(siteDir: string) {
    super(`No built site in ${siteDir} (index.html is missing): start the product once, or wait for its first build.`);
    this.name = 'SiteNotBuiltError';
  }
}

/** The version being copied was removed by the builder (published over and pruned) before the copy was done. */
export class SiteChangedError extends Error {
  constructor() {
    super('The site was published again several times during the export and the version being copied was removed: try again.');
    this.name = 'SiteChangedError';
  }
}

/** The base URL as the copy uses it (ending in `/`), or an Error that says what is wrong. */
export function normaliseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--base-url must be an absolute http:// or https:// address (got ${JSON.stringify(value)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`--base-url must be an absolute http:// or https:// address (got ${JSON.stringify(value)})`);
  if (url.search || url.hash) throw new Error('--base-url must not have a query (?…) or a fragment (#…)');
  return `${url.origin}${url.pathname.replace(/\/*$/, '/')}`;
}

/** Texts of the copy's contact note. */
export const EXPORT_TEXTS = {
  contactUnavailable: {
    en: 'This is a saved copy of the site: messages cannot be sent from it.',
    ar: 'هذه نسخة محفوظة من الموقع: لا يمكن إرسال الرسائل منها.',
  },
  contactElsewhere: {
    en: 'Write by e-mail, or send your message from the site itself:',
    ar: 'راسلنا بالبريد الإلكتروني، أو أرسل رسالتك من الموقع نفسه:',
  },
  contactByEmail: {
    en: 'Write by e-mail instead.',
    ar: 'راسلنا بالبريد الإلكتروني بدلًا من ذلك.',
  },
} as const satisfies Record<string, Record<Lang, string>>;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** A text in every language: the page's stylesheet shows the one of `<html lang>` (`data-lang`). */
const inEveryLanguage = (texts: Record<Lang, string>) =>
  LANGUAGES.map((lang) => `<span data-lang="${lang}" lang="${lang}">${escapeHtml(texts[lang])}</span>`).join('');
const RTL_LANGUAGES = LANGUAGES.filter((lang) => dirOf(lang) === 'rtl');

/** Runs before first use of the switch, in pages whose module scripts cannot load (file://). */
/**
 * Where the page's islands cannot load (Chromium refuses module scripts on file://), the language
 * switch still switches, and a gallery picture opens its original full size (the lightbox's job).
 * Inert once an island has hydrated (Astro removes its `ssr` attribute).
 */
const ISLAND_FALLBACKS = `<script>/* Saved copy: islands that cannot load (file://) */document.addEventListener('click',function(e){var n=e.target;if(!n||!n.closest)return;var b=n.closest('[data-language-switch]');if(b&&b.closest('astro-island[ssr]')){var h=document.documentElement,L=${JSON.stringify(LANGUAGES)},l=L[(L.indexOf(h.lang)+1)%L.length];try{localStorage.setItem('language',l)}catch(x){}h.lang=l;h.dir=${JSON.stringify(RTL_LANGUAGES)}.indexOf(l)<0?'ltr':'rtl';var t=h.getAttribute('data-title-'+l);if(t)document.title=t;return}var g=n.closest('.gallery-open');var i=g&&g.closest('astro-island[ssr]')&&g.querySelector('img');if(i&&i.src){e.preventDefault();location.href=i.src}});</script>`;

const ISLAND = (name: string) =>
  new RegExp(`<astro-island\\b[^>]*\\bcomponent-url="[^"]*/${name}\\.[^"]*"[^>]*>[\\s\\S]*?</astro-island>`, 'g');
// Attribute names in any case: React writes `srcSet`.
const URL_ATTRIBUTE = /(\s)(href|src|srcset|poster|action|content|component-url|renderer-url|before-hydration-url|props)="([^"]*)"/gi;
const HAS_EXTENSION = /\.[A-Za-z0-9]+$/;
const TEXT_FILE = /\.(xml|txt|json|webmanifest)$/i;

/** Whether an address is one people outside the author's machine can open (not a placeholder or loopback). */
function isPublicOrigin(origin: string | null): origin is string {
  if (!origin) return false;
  const host = new URL(origin).hostname;
  return !(
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.startsWith('127.') ||
    host === '[::1]' ||
    host.endsWith('.invalid') ||
    host.endsWith('.example') ||
    host === 'example.com'
  );
}

/** Where a file of the live site goes in the copy. */
export function exportedName(file: string): string {
  // A folder's own page (the Arabic home, ar/index.html) is already where a static host looks.
  if (!file.endsWith('.html') || file === 'index.html' || file === '404.html' || file.endsWith('/index.html')) return file;
  return `${file.slice(0, -'.html'.length)}/index.html`;
}

/** The live site's files, as `/`-separated paths in order (no dot-files). */
async function siteFiles(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((f) => !f.split('/').some((part) => part.startsWith('.')))
    .sort();
}

/** The live site's own address (SITE_URL), ending in `/`, read from its home page's canonical link. */
async function liveOrigin(root: string): Promise<string | null> {
  const indexHtml = await readFile(path.join(root, 'index.html'), 'utf8');
  const canonical = /<link rel="canonical" href="([^"]+)"/.exec(indexHtml)?.[1];
  return canonical ? `${new URL(canonical).origin}/` : null;
}

/**
 * The addresses of the live site as the copy writes them: relative to the file (or under the
 * copy's base URL), with the uploads they name collected on the way.
 */
class AddressRewriter {
  /** The /uploads/… addresses the copy's files name. */
  readonly uploads = new Set<string>();
  /** Every absolute address of the live site in a text. */
  private readonly absolute: RegExp | null;

  constructor(
    readonly origin: string | null,
    private readonly baseUrl: string | null,
  ) {
    this.absolute = origin ? new RegExp(`${origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\s"'<>]*`, 'g') : null;
  }

  /** An address of the site as the copy's file `from` must write it. */
  rewrite(url: string, from: string): string {
    const { origin, baseUrl, uploads } = this;
    let local = url;
    if (origin && url.startsWith(origin)) {
      // The live site's absolute addresses (canonical, sharing, JSON-LD) keep naming it, unless the copy has a base URL of its own.
      if (url.startsWith(`${origin}uploads/`)) uploads.add(decodePath(url.slice(origin.length - 1).replace(/[?#].*$/, '')));
      if (!baseUrl) return url;
      local = url.slice(origin.length - 1);
    }
    if (!local.startsWith('/') || local.startsWith('//')) return url;
    const [, pathname, rest = ''] = /^([^?#]*)(.*)$/.exec(local)!;
    if (/^\/(api|admin-ui)(\/|$)/.test(pathname)) return origin ? `${origin.slice(0, -1)}${local}` : url;
    if (pathname.startsWith('/uploads/')) uploads.add(decodePath(pathname));
    const clean = pathname.replace(/^\/+/, '');
    const isFile = HAS_EXTENSION.test(clean.slice(clean.lastIndexOf('/') + 1));
    const page = clean.replace(/\/+$/, '');
    // A page's file in the copy (the English not-found page stays 404.html, where hosts look for it).
    const target = isFile ? clean : page ? exportedName(`${page}.html`) : 'index.html';
    if (baseUrl) return `${baseUrl}${target.replace(/(^|\/)index\.html$/, '$1')}${rest}`;
    return `${'../'.repeat(from.split('/').length - 1)}${target}${rest}`;
  }

  /** Every absolute address of the live site in a text, as the copy names it (with a base URL: under it). */
  rebase(text: string, from: string): string {
    return this.absolute ? text.replace(this.absolute, (u) => this.rewrite(u, from)) : text;
  }

  attribute(name: string, value: string, from: string): string {
    if (name === 'srcset')
      return value
        .split(/,\s+/)
        .map((part) => part.replace(/^\S+/, (u) => this.rewrite(u, from)))
        .join(', ');
    if (name === 'props')
      return value.replace(/(&quot;|,\s)(\/(?:_astro|uploads)\/[^&\s,"]+)/g, (_, lead: string, u: string) => lead + this.rewrite(u, from));
    if (name === 'content') {
      const refresh = /^(\d+\s*;\s*url=)(.*)$/i.exec(value);
      if (refresh) return refresh[1] + this.rewrite(refresh[2], from);
      return value.startsWith('/') || (this.origin && value.startsWith(this.origin)) ? this.rewrite(value, from) : value;
    }
    return this.rewrite(value, from);
  }

  /** A stylesheet's url(/…) references. */
  css(text: string, from: string): string {
    return text.replace(/url\((['"]?)(\/[^'")]+)\1\)/g, (_, q: string, u: string) => `url(${q}${this.rewrite(u, from)}${q})`);
  }
}

/** Where the contact form was: how to reach the author from a saved copy. */
function contactNote(origin: string | null): string {
  const link = isPublicOrigin(origin) ? ` <a href="${escapeHtml(`${origin}contact`)}">${escapeHtml(`${origin}contact`)}</a>` : '';
  const second = link
    ? `<p dir="auto">${inEveryLanguage(EXPORT_TEXTS.contactElsewhere)}${link}</p>`
    : `<p>${inEveryLanguage(EXPORT_TEXTS.contactByEmail)}</p>`;
  return `<div class="panel" role="note" data-export-contact-note><p><strong>${inEveryLanguage(EXPORT_TEXTS.contactUnavailable)}</strong></p>${second}</div>`;
}

/** A page of the copy: no admin button, a note in place of the contact form, its addresses rewritten, the island fallbacks. */
function exportPage(html: string, name: string, addresses: AddressRewriter, rebaseJsonLd: boolean): string {
  let out = html.replace(ISLAND('admin-button'), '').replace(ISLAND('contact-form'), () => contactNote(addresses.origin));
  out = out.replace(
    URL_ATTRIBUTE,
    (_, space: string, attr: string, value: string) => `${space}${attr}="${addresses.attribute(attr.toLowerCase(), value, name)}"`,
  );
  // JSON-LD names the live site's addresses too; with a base URL they name the copy's.
  if (rebaseJsonLd) {
    out = out.replace(
      /(<script type="application\/ld\+json">)([\s\S]*?)(<\/script>)/g,
      (_, before: string, json: string, after: string) => before + addresses.rebase(json, name) + after,
    );
  }
  const end = out.lastIndexOf('</body>');
  return end === -1 ? out + ISLAND_FALLBACKS : out.slice(0, end) + ISLAND_FALLBACKS + out.slice(end);
}

/** A file of the live version, or SiteChangedError when the builder removed that version meanwhile. */
async function readLiveFile(root: string, file: string): Promise<Buffer> {
  try {
    return await readFile(path.join(root, file));
  } catch (error) {
    // The builder keeps the last few versions only: a long export during many publishes can lose its version.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new SiteChangedError();
    throw error;
  }
}

/**
 * The files of the copy, one at a time (pages rewritten, assets as they are, then the referenced
 * uploads). `summary` is filled in as they go and is complete when the iteration ends.
 */
export async function* siteExportEntries(
  options: SiteExportOptions,
  summary: SiteExportSummary = emptySummary(),
): AsyncGenerator<ZipEntry> {
  const root = await liveRoot(options.siteDir);
  const baseUrl = options.baseUrl ? normaliseBaseUrl(options.baseUrl) : null;
  const files = await siteFiles(root);
  const addresses = new AddressRewriter(await liveOrigin(root), baseUrl);

  for (const file of files) {
    const name = exportedName(file);
    let data = await readLiveFile(root, file);
    if (file.endsWith('.html')) {
      data = Buffer.from(exportPage(data.toString('utf8'), name, addresses, Boolean(baseUrl)), 'utf8');
      summary.pages++;
    } else if (file.endsWith('.css')) {
      data = Buffer.from(addresses.css(data.toString('utf8'), name), 'utf8');
    } else if (TEXT_FILE.test(file)) {
      const rebased = addresses.rebase(data.toString('utf8'), name);
      if (baseUrl) data = Buffer.from(rebased, 'utf8');
    }
    summary.files++;
    summary.bytes += data.length;
    yield { name, data };
  }
  yield* referencedUploads(addresses.uploads, options, summary);
}

/** The uploads the pages name, from the uploads folder (or readUpload); those missing are listed in the summary. */
async function* referencedUploads(uploads: Set<string>, options: SiteExportOptions, summary: SiteExportSummary): AsyncGenerator<ZipEntry> {
  const uploadsRoot = path.resolve(options.uploadsDir);
  for (const address of [...uploads].sort()) {
    const relative = address.slice('/uploads/'.length);
    const source = path.resolve(uploadsRoot, relative);
    const unsafe = !source.startsWith(uploadsRoot + path.sep) || relative.split('/').some((p) => p.startsWith('.'));
    const data = unsafe
      ? null
      : options.readUpload
        ? await options.readUpload(relative)
        : (await isFile(source))
          ? await readFile(source)
          : null;
    if (!data) {
      summary.missingUploads.push(address);
      continue;
    }
    summary.files++;
    summary.uploads++;
    summary.bytes += data.length;
    yield { name: `uploads/${relative}`, data };
  }
}

export function emptySummary(): SiteExportSummary {
  return { pages: 0, files: 0, uploads: 0, missingUploads: [], bytes: 0 };
}

/** The live folder's current version (following the `live` link once), or SiteNotBuiltError. */
async function liveRoot(siteDir: string): Promise<string> {
  let root: string;
  try {
    root = await realpath(siteDir);
  } catch {
    throw new SiteNotBuiltError(siteDir);
  }
  if (!(await isFile(path.join(root, 'index.html')))) throw new SiteNotBuiltError(siteDir);
  return root;
}

/** Whether the live folder has a site to export (for an answer before any byte is sent). */
export async function hasBuiltSite(siteDir: string): Promise<boolean> {
  return liveRoot(siteDir).then(
    () => true,
    () => false,
  );
}

function decodePath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** The copy as a ZIP archive, streamed. `summary` is complete when the last chunk has been given. */
export function siteExportZip(options: SiteExportOptions): { chunks: Readable; summary: SiteExportSummary } {
  const summary = emptySummary();
  return { chunks: zipChunks(siteExportEntries(options, summary)), summary };
}

/** A new name beside `target` for writing before the final rename. */
const partialName = (target: string) =>
  path.join(path.dirname(target), `.${path.basename(target)}.partial-${randomBytes(4).toString('hex')}`);

/**
 * Writes the copy into `outDir` (which must not exist, or be an empty folder) or, for a name ending
 * in `.zip`, into that archive (which must not exist). Written under a temporary name and renamed at
 * the end, so a failed export leaves nothing behind and never a half copy under the asked name.
 */
export async function exportSite(
  options: SiteExportOptions & { out: string },
): Promise<SiteExportSummary & { out: string; kind: 'zip' | 'folder' }> {
  const out = path.resolve(options.out);
  const zip = /\.zip$/i.test(out);
  const live = await liveRoot(options.siteDir);
  const outside = (folder: string) => path.relative(folder, out).startsWith('..') || path.isAbsolute(path.relative(folder, out));
  if (!outside(live) || !outside(path.resolve(options.siteDir)))
    throw new Error(`${out} is inside the live site: choose a place outside ${options.siteDir}.`);
  if (existsSync(out)) {
    const info = await stat(out);
    if (zip || !info.isDirectory()) throw new Error(`${out} already exists: choose a new name or remove it first.`);
    if ((await readdir(out)).length) throw new Error(`${out} is a folder that is not empty: choose a new or empty folder.`);
  }
  await mkdir(path.dirname(out), { recursive: true });
  const partial = partialName(out);
  const summary = emptySummary();
  try {
    if (zip) {
      const file = await open(partial, 'wx');
      try {
        for await (const chunk of zipChunks(siteExportEntries(options, summary))) await file.write(chunk);
      } finally {
        await file.close();
      }
    } else {
      const made = new Set<string>();
      for await (const entry of siteExportEntries(options, summary)) {
        const target = path.join(partial, ...entry.name.split('/'));
        const folder = path.dirname(target);
        if (!made.has(folder)) {
          await mkdir(folder, { recursive: true });
          made.add(folder);
        }
        await writeFile(target, entry.data);
      }
      if (existsSync(out)) await rmdir(out);
    }
    await rename(partial, out);
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
  return { ...summary, out, kind: zip ? 'zip' : 'folder' };
}
