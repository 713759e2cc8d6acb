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

/** Above this many token pairs the comparison is line by line only (the quadratic table would be too large). */
const MAX_CELLS = 4_000_000;

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
      const old = words(part.text);
      const neu = words(next.text);
      if (old.length * neu.length <= MAX_CELLS) {
        for (const p of diffTokens(old, neu)) push(parts, p);
        i++;
        continue;
      }
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

/** Longest common subsequence of two token lists (with the common start and end cut off first). */
function diffTokens(a: string[], b: string[]): DiffPart[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const parts: DiffPart[] = [];
  if (start) push(parts, { type: 'same', text: a.slice(0, start).join('') });
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length * midB.length > MAX_CELLS) {
    push(parts, { type: 'removed', text: midA.join('') });
    push(parts, { type: 'added', text: midB.join('') });
  } else {
    for (const p of lcs(midA, midB)) push(parts, p);
  }
  if (endA < a.length) push(parts, { type: 'same', text: a.slice(endA).join('') });
  return parts;
}

function lcs(a: string[], b: string[]): DiffPart[] {
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j] ? table[(i + 1) * width + j + 1] + 1 : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
    }
  }
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      push(parts, { type: 'same', text: a[i] });
      i++;
      j++;
    } else if (table[(i + 1) * width + j] >= table[i * width + j + 1]) {
      push(parts, { type: 'removed', text: a[i++] });
    } else {
      push(parts, { type: 'added', text: b[j++] });
    }
  }
  while (i < n) push(parts, { type: 'removed', text: a[i++] });
  while (j < m) push(parts, { type: 'added', text: b[j++] });
  return parts;
}
