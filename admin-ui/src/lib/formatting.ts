// The formatting bar's edits on Markdown text (CommonMark, as the site renders it): each takes the
// text and the selection and says what replaces which range and what is selected after.

export interface Selection {
  start: number;
  end: number;
}

export interface Edit {
  /** the range of the text replaced */
  start: number;
  end: number;
  text: string;
  /** the selection after the edit */
  select: Selection;
}

/** `**…**` or `*…*` around the selection (the selection stays on the words); with none, the caret between the marks. */
export function wrap(value: string, { start, end }: Selection, mark: string): Edit {
  const inner = value.slice(start, end);
  // Spaces selected with a word stay outside the marks, or CommonMark would not read them.
  const lead = /^\s*/.exec(inner)![0];
  const trail = /\s*$/.exec(inner.slice(lead.length))![0];
  const words = inner.slice(lead.length, inner.length - trail.length);
  const from = start + lead.length + mark.length;
  return { start, end, text: `${lead}${mark}${words}${mark}${trail}`, select: { start: from, end: from + words.length } };
}

/** `[selection](https://)` with the address selected to type over; with no selection, the placeholder text selected. */
export function link(value: string, { start, end }: Selection, placeholder: string): Edit {
  const words = value.slice(start, end).trim();
  if (!words) return { start, end, text: `[${placeholder}](https://)`, select: { start: start + 1, end: start + 1 + placeholder.length } };
  const url = start + words.length + 3;
  return { start, end, text: `[${words}](https://)`, select: { start: url, end: url + 'https://'.length } };
}

/** The whole lines the selection touches. */
function lines(value: string, { start, end }: Selection): Selection {
  const from = value.lastIndexOf('\n', start - 1) + 1;
  const last = end > start && value[end - 1] === '\n' ? end - 1 : end;
  const to = value.indexOf('\n', last);
  return { start: from, end: to === -1 ? value.length : to };
}

const PREFIXES = /^(#{1,6} |> ?|[-*+] |\d+[.)] )/;

/**
 * Each line of the selection given the prefix (`## `, `> `, `- `, or `1. `, `2. `… for a numbered
 * list); when every line already has it, it is taken off (a second click undoes the first). Another
 * block prefix on a line is replaced, so a list item becomes a quote rather than both.
 */
export function prefixLines(value: string, selection: Selection, kind: 'heading' | 'quote' | 'bullet' | 'numbered'): Edit {
  const range = lines(value, selection);
  const all = value.slice(range.start, range.end).split('\n');
  const prefixOf = (index: number) => ({ heading: '## ', quote: '> ', bullet: '- ', numbered: `${index + 1}. ` })[kind];
  const pattern = { heading: /^#{1,6} /, quote: /^> ?/, bullet: /^[-*+] /, numbered: /^\d+[.)] / }[kind];
  const filled = all.filter((line) => line.trim());
  const remove = filled.length > 0 && filled.every((line) => pattern.test(line));
  let index = 0;
  const text = all
    .map((line) => {
      if (remove) return line.replace(pattern, '');
      // A blank line inside a quote stays in the quote; elsewhere it stays blank.
      if (!line.trim()) return kind === 'quote' && all.length > 1 ? '>' : line;
      return prefixOf(index++) + line.replace(PREFIXES, '');
    })
    .join('\n');
  return { ...range, text, select: { start: range.start, end: range.start + text.length } };
}

/** The next free footnote number: one more than the highest `[^n]` in the text. */
export function nextFootnote(value: string): number {
  let highest = 0;
  for (const match of value.matchAll(/\[\^(\d+)\]/g)) highest = Math.max(highest, Number(match[1]));
  return highest + 1;
}

/** The reference `[^n]` at the caret (after the selection) and its note `[^n]: ` at the end of the text, the caret there to write it. */
export function footnote(value: string, { end }: Selection): Edit {
  const n = nextFootnote(value);
  const reference = `[^${n}]`;
  const before = value.slice(end);
  const tail = before.replace(/\s+$/, '');
  const note = `\n\n[^${n}]: `;
  const text = `${reference}${tail}${note}`;
  return { start: end, end: value.length, text, select: { start: end + text.length, end: end + text.length } };
}

/** `![alt](url)` as a paragraph of its own at the caret; brackets and backslashes leave the alt text (they would end or escape its syntax). */
export function image(value: string, { start, end }: Selection, alt: string, url: string): Edit {
  const before = value.slice(0, start);
  const after = value.slice(end);
  const lead = !before ? '' : before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  const trail = !after ? '' : after.startsWith('\n\n') ? '' : after.startsWith('\n') ? '\n' : '\n\n';
  const picture = `![${alt.replace(/[[\]\\]/g, '').trim()}](${url.trim()})`;
  const text = `${lead}${picture}${trail}`;
  const caret = start + lead.length + picture.length;
  return { start, end, text, select: { start: caret, end: caret } };
}
