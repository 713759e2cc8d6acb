import { diffArrays } from 'diff';

/** A piece of a two-text comparison: kept in both, only in the old text, or only in the new. */
export interface DiffPart {
  type: 'same' | 'removed' | 'added';
  text: string;
}

/** Tokens compared one by one: words and the spaces between them, so a change reads as whole words. */
function words(text: string): string[] {
  return text.match(/\s+|[^\s]+/g) ?? [];
}

function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Past this many changed tokens a passage is shown as removed and added whole (a rewrite, and the comparison stays quick). */
const MAX_EDITS = 1_000;

/**
 * The difference of two texts as kept/removed/added parts: by lines first, then by words within
 * the lines that changed, so a long essay with one edited sentence highlights that sentence.
 */
export function diffText(before: string, after: string): DiffPart[] {
  const byLine = diffTokens(lines(before), lines(after));
  const parts: DiffPart[] = [];
  for (let i = 0; i < byLine.length; i++) {
    const part = byLine[i];
    const next = byLine[i + 1];
    // A run of removed lines followed by added ones: a changed passage, compared word by word.
    if (part.type === 'removed' && next?.type === 'added') {
      for (const p of diffTokens(words(part.text), words(next.text))) push(parts, p);
      i++;
      continue;
    }
    push(parts, part);
  }
  return parts;
}

function push(parts: DiffPart[], part: DiffPart) {
  const last = parts.at(-1);
  if (last && last.type === part.type) last.text += part.text;
  else if (part.text) parts.push({ ...part });
}

/** jsdiff's shortest edit script of two token lists. */
function diffTokens(a: string[], b: string[]): DiffPart[] {
  const changes = diffArrays(a, b, { maxEditLength: MAX_EDITS });
  const parts: DiffPart[] = [];
  if (!changes) {
    push(parts, { type: 'removed', text: a.join('') });
    push(parts, { type: 'added', text: b.join('') });
    return parts;
  }
  for (const c of changes) push(parts, { type: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value.join('') });
  return parts;
}
