/**
 * The specification's plain text (an item's `textFormat` 'plain'), apart from the Markdown renderer
 * so the overlay can turn a plain text into Markdown without carrying marked.
 */

/** How a plain text splits into paragraphs: on blank lines (essays, descriptions) or on each line break (news). */
export type PlainLayout = 'blank-lines' | 'lines';

/** Plain text's paragraphs: separated by blank lines, or one per line. */
export function plainParagraphs(text: string, layout: PlainLayout): string[] {
  return text
    .split(layout === 'lines' ? /\r?\n/ : /\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/**
 * An upload of this site's API (`/uploads/…`, no `..` or `.` segment, also not percent-encoded as
 * `%2e%2e`, which browsers read as `..`): the only images a text may show.
 */
export function isUploadPath(src: string): boolean {
  if (!/^\/uploads\/[A-Za-z0-9._~%/-]+$/.test(src)) return false;
  return !src.split('/').some((part) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      return true;
    }
    return decoded === '..' || decoded === '.' || /[/\\]/.test(decoded);
  });
}

/** A paragraph that is exactly `![alt](ref)`, as the importer writes an image inside a plain text. */
const IMAGE_PARAGRAPH = /^!\[([^\]\r\n]*)\]\(([^()\s]+)\)$/;

/** The upload image a plain paragraph stands for, or null (the paragraph stays text). */
export function plainImage(paragraph: string): { src: string; alt: string } | null {
  const match = IMAGE_PARAGRAPH.exec(paragraph.trim());
  if (!match || !isUploadPath(match[2])) return null;
  return { src: match[2], alt: match[1].trim() };
}

// A character next to which `_` may open or close emphasis (CommonMark: whitespace, punctuation, an edge).
const FLANK = /[\s\p{P}\p{S}]/u;

/** One line of a plain paragraph written so Markdown reads every character as itself. */
function escapeLine(line: string): string {
  const chars = [...line];
  let out = chars
    .map((c, i) => {
      if (/[\\*`[\]~|]/.test(c)) return `\\${c}`;
      if (c === '_') {
        const before = chars[i - 1];
        const after = chars[i + 1];
        return before && after && !FLANK.test(before) && !FLANK.test(after) ? c : '\\_';
      }
      // Raw HTML and autolinks start at `<` followed by something; an entity at `&name;`.
      if (c === '<') return i + 1 < chars.length && !/\s/.test(chars[i + 1]) ? '\\<' : c;
      if (c === '&') return /^&(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/i.test(chars.slice(i, i + 40).join('')) ? '\\&' : c;
      return c;
    })
    .join('');
  // GFM makes bare web addresses and e-mail addresses links; the plain text shows them as text.
  out = out
    .replace(/\b(https?|ftp):\/\//gi, '$1\\://')
    .replace(/\bwww\./gi, 'www\\.')
    .replace(/@/g, '\\@');
  // What a line may start: a heading, a quote, a list item, a thematic break or setext underline.
  return out
    .replace(/^(#+)(?=\s|$)/, '\\$1')
    .replace(/^>/, '\\>')
    .replace(/^([-+=])/, '\\$1')
    .replace(/^(\d{1,9})([.)])/, '$1\\$2');
}

/**
 * The Markdown that renders as a plain text renders: the same paragraphs (a news item's lines each
 * their own), the same words, every character Markdown would read as syntax escaped, a picture
 * paragraph still its picture. How the overlay turns on formatting for a text written as plain.
 */
export function plainAsMarkdown(text: string, layout: PlainLayout): string {
  return plainParagraphs(text, layout)
    .map((paragraph) => {
      const image = plainImage(paragraph);
      if (image) return `![${image.alt.replace(/[[\]\\]/g, '\\$&')}](${image.src})`;
      return paragraph
        .split(/\r?\n/)
        .map((line) => escapeLine(line.trim()))
        .join('\n');
    })
    .join('\n\n');
}
