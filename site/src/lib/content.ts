/**
 * The site's own rules for turning content into what a visitor sees (Drive links, excerpts, paragraphs,
 * play scripts, summaries). Unit-tested. Rules the site shares with the API and the overlay (safe URL,
 * image path, image size from a name, Google Drive links, review entries) come from @portfolio/contract/rules.
 */
import { formattedPlainText, plainImage, plainParagraphs } from '@portfolio/contract/formatted-text';

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

/** News card excerpt: the excerpt, or the first 150 characters of the content (its images left out). */
export function newsExcerpt(excerpt: string | null | undefined, content: string): string {
  if (excerpt && excerpt.trim()) return excerpt.trim();
  const text = withoutImageParagraphs(content).trim();
  return text.length > 150 ? `${text.slice(0, 150).trimEnd()}…` : text;
}

/** Essay content: paragraphs separated by blank lines (as plain text; see @portfolio/contract/formatted-text). */
export const essayParagraphs = (content: string) => plainParagraphs(content, 'blank-lines');

/** News content: a paragraph per line. */
export const newsParagraphs = (content: string) => plainParagraphs(content, 'lines');

/**
 * The image an essay or news paragraph stands for (`![alt](/uploads/…)`): only an upload of this
 * site's API (`/uploads/…`, no `..`), never an arbitrary address; null for any other paragraph, which stays text.
 */
export const contentImage = (paragraph: string) => plainImage(paragraph);

/**
 * Text without the image syntax: each line that is an image (`![alt](ref)`, any address) becomes its
 * alt text (search: a picture's description is worth finding) or nothing (excerpts).
 */
export const withoutImageParagraphs = (content: string, keepAlt = false) => formattedPlainText(content, 'plain', keepAlt);

export type ScriptLine =
  { kind: 'heading'; text: string } | { kind: 'dialogue'; speaker: string; text: string } | { kind: 'text'; text: string };

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
