// Plain texts holding what Markdown would read as formatting (`*`, `_`, `#`, `>`, `1.`, `-`, links,
// raw HTML, entities, backslashes), URLs, Arabic and mixed lines, as a client of the specification
// posts them (no textFormat): their pages must stay exactly as they were before formatted text.
const MARKUP = [
  '*not emphasis* and **not strong** and _not italic_ and __not bold__ 5 * 3 * 2',
  '# not a heading\n## nor this\n#hashtag',
  '> not a quote\n>> nor this',
  '1. not a list\n2) nor this\n- nor a bullet\n+ plus\n* star',
  'A link https://example.org/a_b_c?x=1&y=2 and [text](https://example.org) and [bad](javascript:alert(1)) and <https://example.org>',
  '<b>raw html</b> <script>alert(1)</script> &copy; &amp; \\*escaped\\* `code` ~~strike~~ a\\\nb',
  'مرحبا *بالعالم* — English mixed **داخل** النص.\n١. ليست قائمة\n- ولا هذه',
  '---\n***\n___',
  '    indented code?\n\ttab',
  '![Olive trees](/uploads/essays/olive-1200x800.jpg)',
  '![Elsewhere](https://evil.example/x.png)',
  'Footnote[^1] reference.\n\n[^1]: Not a footnote.',
  '| a | b |\n|---|---|\n| 1 | 2 |',
];

export const SEED_TEXT = MARKUP.join('\n\n');

/** [collection, body] of each seeded item: an essay, a news item, a book and a play, each with an Arabic version. */
export const PLAIN_SEED = [
  [
    'essays',
    {
      title: 'Plain *essay*',
      excerpt: 'An _excerpt_ with # and > signs',
      content: SEED_TEXT,
      publishedDate: '2024-03-01',
      translations: { ar: { title: 'مقالة *عادية*', content: `نص عربي\n\n${SEED_TEXT}` } },
    },
  ],
  [
    'news',
    {
      title: 'Plain *news*',
      excerpt: 'News *excerpt* with 1. and #',
      content: SEED_TEXT,
      category: 'award',
      publishedDate: '2025-01-02',
      translations: { ar: { title: 'خبر', content: `خبر عربي\n${SEED_TEXT}` } },
    },
  ],
  [
    'books',
    {
      title: 'Plain book',
      description: SEED_TEXT,
      year: 2020,
      publisher: 'P',
      translations: { ar: { description: `وصف\n\n${SEED_TEXT}` } },
    },
  ],
  [
    'plays',
    {
      title: 'Plain play',
      status: 'published',
      description: SEED_TEXT,
      content: 'ACT I\nA: *hello*',
      translations: { ar: { description: `وصف\n\n${SEED_TEXT}` } },
    },
  ],
];
