import { perLanguage } from '@portfolio/contract/languages';

import type { Both, Site } from '../config/site';

/**
 * The first sentences of a text, whole, up to `max` characters (at least the first one, shortened
 * with an ellipsis when it alone is longer); a bracketed note at the end of the first paragraph
 * (the placeholder's "(Placeholder biography: …)") is left out.
 */
export function firstSentences(text: string, max = 280): string {
  const paragraph = (text.split(/\n\s*\n/).find((p) => p.trim()) ?? '').replace(/\s+/g, ' ').trim();
  const sentences = paragraph.replace(/\s*\([^()]*\)$/, '').match(/[^.!?؟…]+(?:[.!?؟…]+["'»”)]*|$)/g) ?? [];
  let out = '';
  for (const sentence of sentences.map((s) => s.trim()).filter(Boolean)) {
    const next = out ? `${out} ${sentence}` : sentence;
    if (next.length > max) break;
    out = next;
  }
  const first = sentences[0]?.trim();
  if (out || !first) return out;
  return `${first.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/** The bio box's text in each language: the short bio, else the biography's first sentences. */
export const shortBioOf = (site: Site): Both => perLanguage((lang) => site.shortBio[lang] || firstSentences(site.biography[lang]) || null);
