import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { formattedHtml, formattedPlainText, type TextImage } from './formatted-text.js';
import { plainAsMarkdown, type PlainLayout } from './plain-text.js';

// The site's plain-text seed: the texts a specification client posts, which must keep their pages.
const seed = (await import(new URL('../../../site/render/plain-text-seed.mjs', import.meta.url).href)) as {
  SEED_TEXT: string;
  PLAIN_SEED: [string, Record<string, unknown> & { translations: Record<string, Record<string, string>> }][];
};

const picture = ({ src, alt, block }: TextImage) => `<picture ${block ? 'block' : 'inline'} src="${src}" alt="${alt}">`;
// Whitespace a reader never sees (line breaks inside a paragraph, between blocks) aside, the HTML itself.
const normalised = (html: string) =>
  html
    .replace(/\s+/g, ' ')
    .replace(/>\s+</g, '><')
    .replace(/<p> /g, '<p>')
    .replace(/ <\/p>/g, '</p>')
    .trim();
const words = (text: string) => text.split(/\s+/).filter(Boolean).join(' ');
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
// What a reader reads of a page's HTML: its text, a picture as its alt text (as search keeps it).
const textOf = (html: string) =>
  words(
    html
      .replace(/<picture [^>]*alt="([^"]*)">/g, ' $1 ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name]),
  );

/** Whether a text as plain and `markdown` as Markdown show the same page, and the Markdown's search text is the page's words. */
function rendersAlike(plain: string, markdown: string, layout: PlainLayout): boolean {
  const html = (text: string, format: 'plain' | 'markdown') => normalised(formattedHtml(text, { format, layout, image: picture }));
  return (
    html(plain, 'plain') === html(markdown, 'markdown') &&
    textOf(html(plain, 'plain')) === words(formattedPlainText(markdown, 'markdown', true))
  );
}

const explain = (text: string, layout: PlainLayout) => {
  const markdown = plainAsMarkdown(text, layout);
  return `${JSON.stringify(text)} (${layout}) as ${JSON.stringify(markdown)}:\n${formattedHtml(text, { format: 'plain', layout, image: picture })}\n${formattedHtml(markdown, { format: 'markdown', layout, image: picture })}`;
};

// Each holds something Markdown reads as syntax: written as is, it renders differently (checked below).
const HARD = [
  'a*b*c and a_b_ c _d_',
  '1) x\n2. y',
  '&copy; &#169; &#xA9; &amp;',
  'two trailing spaces  \nnext line',
  'backslash at the end\\\nnext',
  '---',
  'Text\n---',
  'Text\n===',
  '- - -',
  '# Heading?\n#not',
  '> quote\n+ plus',
  'See https://example.org/a_b_c?x=1&y=2 or www.example.org',
  'Write to someone@example.org',
  '<https://example.org> <b>bold</b> <!-- c -->',
  '`code` and ``more``',
  '~~gone~~ and ~one~',
  '[link](https://example.org) [ref]\n\n[ref]: https://example.org',
  'Note[^1]\n\n[^1]: text',
  'a | b\n--- | ---\n1 | 2',
  '```\nfenced\n```',
  '~~~\nfenced\n~~~',
  '![Olive](https://elsewhere.example/o.jpg)',
  'مرحبا *بالعالم* و**هنا**\n١. ليست قائمة\n- ولا هذه',
  '__bold__ *em* **strong**',
];

// Needing no escape, or only whitespace: still the same page.
const EASY = [
  'snake_case_name and file_name.txt',
  'A < B > C & D; 5 * 3',
  '    indented first line\n\ttabbed second',
  'مرحبا بالعالم — نص عربي.\nسطر ثان',
  '![Olive trees](/uploads/essays/olive-1200x800.jpg)',
  'Before\n\n![A [bracketed] alt](/uploads/essays/a.jpg)\n\nAfter',
  '',
];

describe('plainAsMarkdown: a plain text as the Markdown that renders the same', () => {
  const corpus = [
    seed.SEED_TEXT,
    ...seed.PLAIN_SEED.flatMap(([, body]) => [
      String(body.content ?? body.description ?? ''),
      ...Object.values(body.translations).map((t) => t.content ?? t.description ?? ''),
    ]),
    ...HARD,
    ...EASY,
    HARD.join('\n\n'),
    HARD.join('\n'),
  ];

  for (const layout of ['blank-lines', 'lines'] as const) {
    it(`gives the same paragraphs, words and pictures over the seed and the hard cases (${layout})`, () => {
      for (const text of corpus) assert.ok(rendersAlike(text, plainAsMarkdown(text, layout), layout), explain(text, layout));
    });
  }

  it('each hard case needs its escapes: written as is, Markdown would render it differently', () => {
    for (const text of HARD) assert.ok(!rendersAlike(text, text, 'blank-lines'), `${JSON.stringify(text)} renders alike unescaped`);
  });

  it('escapes only what Markdown would read, so the text stays readable', () => {
    assert.equal(plainAsMarkdown('a*b*c', 'blank-lines'), 'a\\*b\\*c');
    assert.equal(plainAsMarkdown('1) x\n# y\n#tag', 'blank-lines'), '1\\) x\n\\# y\n#tag');
    assert.equal(plainAsMarkdown('snake_case 5 < 6 & 7', 'blank-lines'), 'snake_case 5 < 6 & 7');
    assert.equal(plainAsMarkdown('&copy; <b>', 'blank-lines'), '\\&copy; \\<b>');
    assert.equal(
      plainAsMarkdown('Pictures:\n![Olive](/uploads/essays/a.jpg)\n\n![Olive](/uploads/essays/a.jpg)', 'blank-lines'),
      'Pictures:\n!\\[Olive\\](/uploads/essays/a.jpg)\n\n![Olive](/uploads/essays/a.jpg)',
    );
  });

  it('makes a news item’s lines paragraphs, trailing spaces dropped', () => {
    assert.equal(plainAsMarkdown('One  \nTwo\n\n\nThree', 'lines'), 'One\n\nTwo\n\nThree');
  });
});
