/** Pure rules of the specification for turning content into what a visitor sees. Unit-tested. */

/**
 * Only web links and paths on this site may reach an href or a frame: anything else
 * (javascript:, data:, …) typed into a field would run in visitors' and admins' browsers.
 */
export function safeUrl(value: string | null | undefined): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^https?:\/\//i.test(v)) return v;
  if (v.startsWith('/') && !v.startsWith('//') && !v.startsWith('/\\')) return v;
  return null;
}

/** Image paths (spec §7): /uploads/, /objects/, /public-objects/ and full URLs stay; a bare name goes under /uploads/. */
export function imagePath(value: string | null | undefined): string | null {
  if (!value) return null;
  const v = value.trim();
  if (!v) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(v) || v.startsWith('//')) return safeUrl(v);
  if (v.startsWith('/')) return safeUrl(v);
  return `/uploads/${v.replace(/^\.+\/+/, '')}`;
}

/**
 * The pixel size the API writes at the end of an uploaded image's name
 * (`/uploads/artworks/mf3k2a-0123456789abcdef-1200x800.jpg`), so the build can lay an image out
 * and plan its variants without downloading it. Null for other names (older uploads, typed-in names).
 */
export function imageSizeFromName(path: string | null | undefined): { width: number; height: number } | null {
  const match = /-(\d+)x(\d+)\.(jpe?g|png|gif|webp|avif)$/.exec(path ?? '');
  if (!match) return null;
  const width = Number(match[1]);
  const height = Number(match[2]);
  return width > 0 && height > 0 && width <= 100_000 && height <= 100_000 ? { width, height } : null;
}

export function isGoogleDrive(url: string): boolean {
  return /^https?:\/\/(drive|docs)\.google\.com\//i.test(url);
}

/** View PDF: a Drive link with /view changed to /preview (embeddable). */
export function drivePreviewUrl(url: string): string {
  return url.replace(/\/view(?=[/?#]|$)/, '/preview');
}

export function driveFileId(url: string): string | null {
  const byPath = url.match(/\/file\/d\/([A-Za-z0-9_-]+)/);
  if (byPath) return byPath[1];
  try {
    return new URL(url).searchParams.get('id');
  } catch {
    return null;
  }
}

/** Download PDF: a direct download link built from the Drive file id. */
export function driveDownloadUrl(url: string): string {
  const id = driveFileId(url);
  return id ? `https://drive.google.com/uc?export=download&id=${id}` : url;
}

/** News card excerpt: the excerpt, or the first 150 characters of the content. */
export function newsExcerpt(excerpt: string | null | undefined, content: string): string {
  if (excerpt && excerpt.trim()) return excerpt.trim();
  const text = content.trim();
  return text.length > 150 ? `${text.slice(0, 150).trimEnd()}…` : text;
}

/** Essay content: paragraphs separated by blank lines. */
export const essayParagraphs = (content: string) =>
  content
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean);

/** News content: a paragraph per line. */
export const newsParagraphs = (content: string) =>
  content
    .split(/\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean);

export type ScriptLine = { kind: 'heading'; text: string } | { kind: 'dialogue'; speaker: string; text: string } | { kind: 'text'; text: string };

/** Play text: lines starting ACT or SCENE are headings; 'Speaker: text' lines are dialogue. */
export function parseScript(content: string): ScriptLine[] {
  return content
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line): ScriptLine => {
      if (/^(ACT|SCENE)\b/.test(line)) return { kind: 'heading', text: line };
      const dialogue = line.match(/^([^:]{1,40}):\s+(.+)$/);
      if (dialogue && !/^https?$/i.test(dialogue[1])) return { kind: 'dialogue', speaker: dialogue[1].trim(), text: dialogue[2] };
      return { kind: 'text', text: line };
    });
}

/** Plain text for meta descriptions. */
export const summary = (text: string | null | undefined, max = 160) => {
  const t = (text ?? '').replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
};

export const hasArabic = (text: string) => /[\u0600-\u06FF]/.test(text);
