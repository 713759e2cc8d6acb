/**
 * The specification's rules that more than one part applies: the API when it accepts a value, the
 * overlay when it checks a form and shows a preview, the site when it renders. One definition each,
 * tested here (rules.spec.ts); the parts import them and do not restate them.
 */

/** Admin passwords (create, change, reset). */
export const PASSWORD_MIN_LENGTH = 6;

/**
 * A link to another site that a visitor can follow: an absolute http:// or https:// URL with a host
 * and no spaces. What the API's link fields accept, what the overlay asks for, what the site links to.
 */
export function isWebLink(value: string | null | undefined): boolean {
  const v = value?.trim();
  if (!v || !/^https?:\/\/[^/?#\s]/i.test(v) || /\s/.test(v)) return false;
  try {
    const url = new URL(v);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const EMAIL_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const EMAIL_ADDRESS = new RegExp(`^[A-Za-z0-9.!#$%&'*+/=?^_\`{|}~-]+@${EMAIL_LABEL}(?:\\.${EMAIL_LABEL})+$`);

/**
 * An e-mail address as every part checks it (contact form, newsletter, admin users, forgot password,
 * settings, ADMIN_EMAIL), trimmed: the HTML specification's "valid e-mail address" (what a browser's
 * `type=email` field accepts), with a dot in the domain (name@domain.tld). So no `<…>`, no spaces,
 * no empty, leading or trailing domain label (`example..org`). Written here rather than taken from
 * validator.js so the site's and the overlay's bundles stay small; deliverability is the mail server's to judge.
 */
export function isEmailAddress(value: string | null | undefined): boolean {
  return EMAIL_ADDRESS.test(value?.trim() ?? '');
}

/** A path on this site (`/books/1`), never a protocol-relative `//host` or `/\host`. */
export function isSitePath(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\');
}

/**
 * Only web links and paths on this site may reach an href, a src or a frame: anything else
 * (javascript:, data:, //other-host, …) is dropped (null), as it would run or load something
 * visitors and admins did not choose.
 */
export function safeUrl(value: string | null | undefined): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (isSitePath(v)) return v;
  return isWebLink(v) ? v : null;
}

/**
 * Where a stored image is loaded from (specification §7): full web URLs and site paths (/uploads/,
 * /objects/, /public-objects/) as they are; a bare file name (`cover.jpg`, `./cover.jpg`) lives under
 * /uploads/ (leading dots and slashes dropped). Anything else (data:, //host, javascript:) is dropped: null.
 */
export function imagePath(value: string | null | undefined): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(v) || v.startsWith('/')) return safeUrl(v);
  const name = v.replace(/^\.+\/+/, '');
  return name ? `/uploads/${name}` : null;
}

/**
 * The pixel size the API writes at the end of an uploaded image's name
 * (`/uploads/artworks/mf3k2a-0123456789abcdef-1200x800.jpg`), so an image can be laid out and its
 * variants planned without downloading it. Null for other names (older uploads, typed-in names).
 */
export function imageSizeFromName(path: string | null | undefined): { width: number; height: number } | null {
  const match = /-(\d+)x(\d+)\.(jpe?g|png|gif|webp|avif)$/i.exec(path ?? '');
  if (!match) return null;
  const width = Number(match[1]);
  const height = Number(match[2]);
  return width > 0 && height > 0 && width <= 100_000 && height <= 100_000 ? { width, height } : null;
}

export type ReviewKind = 'drive' | 'pdf' | 'link';

/** A book's review as the site shows it. `title` is null when the entry has none (the page numbers it). */
export interface ReviewEntry {
  title: string | null;
  url: string;
  kind: ReviewKind;
}

export const isGoogleDriveUrl = (url: string) => /^https?:\/\/(drive|docs)\.google\.com\//i.test(url);

/**
 * A book's review entry (specification §2): a JSON string `{"title","url"}` or a bare URL. Null when
 * the site cannot link it (no URL, a URL that is not a web link or site path, broken JSON).
 */
export function parseReviewEntry(entry: string): ReviewEntry | null {
  let title: string | null = null;
  let url = entry.trim();
  if (url.startsWith('{')) {
    try {
      const parsed = JSON.parse(url) as { title?: unknown; url?: unknown };
      title = typeof parsed.title === 'string' && parsed.title.trim() ? parsed.title.trim() : null;
      url = typeof parsed.url === 'string' ? parsed.url.trim() : '';
    } catch {
      return null;
    }
  }
  const safe = safeUrl(url);
  if (!safe) return null;
  const kind: ReviewKind = isGoogleDriveUrl(safe) ? 'drive' : /\.pdf($|[?#])/i.test(safe) ? 'pdf' : 'link';
  return { title, url: safe, kind };
}

/** The stored form of a review: `{"title","url"}` as JSON, or the bare URL when it has no title. */
export function serializeReviewEntry(review: { title?: string | null; url: string }): string {
  const title = review.title?.trim() ?? '';
  const url = review.url.trim();
  return title ? JSON.stringify({ title, url }) : url;
}

/** Breaks a stored entry into its fields for editing (broken JSON is kept as the URL, to be fixed). */
export function reviewEntryFields(entry: string): { title: string; url: string } {
  const v = entry.trim();
  if (v.startsWith('{')) {
    try {
      const parsed = JSON.parse(v) as { title?: unknown; url?: unknown };
      if (parsed && typeof parsed === 'object') {
        return { title: typeof parsed.title === 'string' ? parsed.title : '', url: typeof parsed.url === 'string' ? parsed.url : '' };
      }
    } catch {
      // Shown as typed, so the author can see and fix it.
    }
  }
  return { title: '', url: v };
}

/** An ORDER BY: fields compared in turn, each ascending or descending. */
export type ListOrder = Readonly<Record<string, 'ASC' | 'DESC'>>;

/**
 * The order of each public list (declared per kind in kinds.ts). The API sorts by it in the database;
 * the site keeps a list in this order when it applies changes to the list it read before
 * (site/src/lib/api.ts), and a preview places the draft with it.
 */
export { LIST_ORDER } from './kinds.js';

/**
 * The database's ORDER BY in JavaScript, for items as the API answers them (dates as ISO strings)
 * or as entities (Date objects): NULL sorts first ascending and last descending, as on SQLite and MySQL.
 */
export function compareBy(order: ListOrder): (a: object, b: object) => number {
  const value = (v: unknown) =>
    v instanceof Date ? v.getTime() : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : v;
  return (a, b) => {
    for (const [field, direction] of Object.entries(order)) {
      const x = value((a as Record<string, unknown>)[field]);
      const y = value((b as Record<string, unknown>)[field]);
      if (x === y || (x == null && y == null)) continue;
      const sign = direction === 'DESC' ? -1 : 1;
      if (x === null || x === undefined) return -sign;
      if (y === null || y === undefined) return sign;
      return (x as number) < (y as number) ? -sign : sign;
    }
    return 0;
  };
}
