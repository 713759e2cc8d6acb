import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { formattedHtml } from '@portfolio/contract/formatted-text';

import { excerptOf, isoDate } from './common.js';
import { htmlInlineText, htmlToMarkdown, stripShortcodes } from './html-text.js';

describe('a title written as HTML', () => {
  it('is the text it shows: tags go, their text stays, an image is nothing, never image syntax', () => {
    assert.equal(htmlInlineText('<svg onload=alert(1)> SVG title'), 'SVG title');
    assert.equal(htmlInlineText('"><img src=x onerror=alert(1)> Quote title'), '"> Quote title');
    assert.equal(htmlInlineText('Markup: Title <em>With</em> <b>Mark<sup>up</sup></b>'), 'Markup: Title With Markup');
    assert.equal(htmlInlineText('<script>alert(1)</script>Tom &amp; Jerry<style>p{}</style>'), 'Tom & Jerry');
    assert.equal(htmlInlineText('<p>One</p><p>Two<br>three</p>'), 'One Two three');
  });
});

describe('HTML as Markdown', () => {
  it('keeps headings, emphasis, lists and block quotes; <br> a hard line break', () => {
    const { content } = htmlToMarkdown(
      '<h2>Title</h2><p>One<br/>two <strong>strong</strong> <b>bold</b> <em>em</em> <i>i</i></p><ol><li>First</li><li>Second <em>item</em></li></ol>' +
        '<ul><li>a</li><li>b<ul><li>c</li></ul></li></ul><blockquote><p>Quoted</p><p>again</p></blockquote>',
    );
    assert.equal(
      content,
      '## Title\n\nOne  \ntwo **strong** **bold** *em* *i*\n\n1. First\n2. Second *item*\n\n- a\n- b\n  - c\n\n> Quoted\n>\n> again',
    );
  });

  it('keeps links to the web and mail as links (a bare address as an autolink); other links keep their text', () => {
    const { content } = htmlToMarkdown(
      '<p><a href="https://a.example/x" title="t">the text</a>, <a href="https://b.example/">b.example</a>, <a href="/relative">local</a>, ' +
        '<a href="mailto:me@example.org">write</a>, <a href="javascript:alert(1)">bad</a>, <a href="https://c.example/a b(c">odd</a></p>',
    );
    assert.equal(
      content,
      '[the text](https://a.example/x), <https://b.example/>, local, [write](mailto:me@example.org), bad, [odd](https://c.example/a%20b%28c)',
    );
  });

  it('leaves no HTML: scripts, styles, iframes and forms go with their content, other tags leave their text; entities decoded', () => {
    const { content } = htmlToMarkdown(
      '<!-- wp:paragraph --><p>Tom &amp; Jerry&nbsp;&mdash; &#x201C;hi&#x201D;</p><!-- /wp:paragraph --><script>x()</script><style>p{}</style>' +
        '<iframe src="https://v.example"></iframe><form><button>Send</button></form><custom-tag onclick="x()">Kept <u>text</u></custom-tag><svg><text>no</text></svg>',
    );
    assert.equal(content, 'Tom & Jerry — “hi”\n\nKept text');
  });

  it('escapes what Markdown would read in plain text', () => {
    const { content } = htmlToMarkdown(
      '<p>2 * 3 = 6, snake_case, [sic], &lt;b&gt;not bold&lt;/b&gt;, &amp;copy;</p><p># not a heading</p><p>1. not a list</p>',
    );
    assert.equal(content, '2 \\* 3 = 6, snake\\_case, \\[sic\\], \\<b>not bold\\</b>, \\&copy;\n\n\\# not a heading\n\n1\\. not a list');
  });

  it('makes each inline image its own paragraph and lists it, resolving its address; a link around it goes', () => {
    const text = htmlToMarkdown(
      '<p>Before <img src="/a.jpg" alt="A [1]"> after</p><p><a href="https://x.example/big.jpg"><img src="/b.jpg" alt="B"></a> Caption</p><p><img src="data:image/png;base64,xx"></p>',
      { resolveImage: (src) => `https://site.example${src}` },
    );
    assert.equal(text.content, 'Before\n\n![A 1](https://site.example/a.jpg)\n\nafter\n\n![B](https://site.example/b.jpg)\n\nCaption');
    assert.deepEqual(text.images, [
      { ref: 'https://site.example/a.jpg', alt: 'A [1]' },
      { ref: 'https://site.example/b.jpg', alt: 'B' },
    ]);
  });

  it('keeps a picture a picture when its alt text ends in a backslash or holds brackets (they leave the alt text)', () => {
    const text = htmlToMarkdown('<p><img src="/a.jpg" alt="C:\\boats\\"></p><p><img src="/b.jpg" alt="[draft] \\"></p>', {
      resolveImage: (src) => `/uploads/essays${src}`,
    });
    assert.equal(text.content, '![C:boats](/uploads/essays/a.jpg)\n\n![draft](/uploads/essays/b.jpg)');
    assert.equal(
      formattedHtml(text.content, { format: 'markdown', layout: 'blank-lines' }),
      '<p><img src="/uploads/essays/a.jpg" alt="C:boats"></p>\n<p><img src="/uploads/essays/b.jpg" alt="draft"></p>',
    );
  });

  it('lists no picture of an element it drops', () => {
    const text = htmlToMarkdown('<div class="subscribe"><img src="https://x.example/button.png"> Subscribe</div><p>Text</p>', {
      dropClasses: ['subscribe'],
    });
    assert.deepEqual([text.content, text.images], ['Text', []]);
  });
});

describe('HTML as Markdown: footnotes, classic text, both languages', () => {
  it('turns footnotes into [^n] numbered by first reference, with the notes at the end: WordPress, Ghost (markdown-it), Substack', () => {
    const wordpress = htmlToMarkdown(
      '<p>A claim<sup data-fn="u1" class="fn"><a href="#u1" id="u1-link">1</a></sup>, another<sup data-fn="u2" class="fn"><a href="#u2" id="u2-link">2</a></sup> and the first again<sup data-fn="u1" class="fn"><a href="#u1" id="u1-link">1</a></sup>.</p>' +
        '<ol class="wp-block-footnotes"><li id="u2">Second <em>note</em>. <a href="#u2-link" aria-label="Jump to footnote reference 2">↩︎</a></li>' +
        '<li id="u1">First <a href="https://n.example">note</a> <a href="#u1-link" aria-label="Jump to footnote reference 1">↩︎</a></li></ol>',
    );
    assert.equal(
      wordpress.content,
      'A claim[^1], another[^2] and the first again[^1].\n\n[^1]: First [note](https://n.example)\n\n[^2]: Second *note*.',
    );
    const ghost = htmlToMarkdown(
      '<p>Ghost<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup> text.</p><hr class="footnotes-sep"><section class="footnotes"><ol class="footnotes-list">' +
        '<li id="fn1" class="footnote-item"><p>Note one <a href="#fnref1" class="footnote-backref">↩︎</a></p></li></ol></section>',
    );
    assert.equal(ghost.content, 'Ghost[^1] text.\n\n[^1]: Note one');
    const substack = htmlToMarkdown(
      '<p>Substack<a class="footnote-anchor" data-component-name="FootnoteAnchorToDOM" id="footnote-anchor-1" href="#footnote-1" target="_self">1</a> text.</p>' +
        '<div class="footnote" data-component-name="FootnoteToDOM"><a id="footnote-1" href="#footnote-anchor-1" class="footnote-number" contenteditable="false" target="_self">1</a>' +
        '<div class="footnote-content"><p>The note.</p><p>Its second paragraph.</p></div></div>',
    );
    assert.equal(substack.content, 'Substack[^1] text.\n\n[^1]: The note.\n\n    Its second paragraph.');
  });

  it('reads WordPress classic text: a blank line ends a paragraph, a newline breaks the line, <pre> keeps its lines', () => {
    assert.equal(
      htmlToMarkdown('First line\nsecond line.\n\nNew <em>paragraph</em>\n\n<pre>a\nb</pre>', { autop: true }).content,
      'First line  \nsecond line.\n\nNew *paragraph*\n\na  \nb',
    );
  });

  it('keeps mixed Arabic and English as written', () => {
    assert.equal(
      htmlToMarkdown('<p>كتبت <strong>هذه</strong> الرسالة with an English <a href="https://e.example">link</a>.</p>').content,
      'كتبت **هذه** الرسالة with an English [link](https://e.example).',
    );
  });

  it('reduces WordPress shortcodes to their text', () => {
    assert.equal(
      stripShortcodes('[caption id="1"]<img src="a.jpg"> Sea[/caption] [gallery ids="1,2"] [embed]https://v.example/1[/embed] [sic]'),
      '<img src="a.jpg"> Sea  https://v.example/1 [sic]',
    );
  });
});

describe('excerpts and dates', () => {
  it('shortens the first text paragraph at a word when there is no excerpt', () => {
    const long = `${'word '.repeat(60)}end`;
    assert.equal(excerptOf(null, `![x](a.jpg)\n\n${long}`), `${'word '.repeat(39)}word…`);
    assert.equal(excerptOf('  Given  one ', 'Body'), 'Given one');
    assert.equal(
      excerptOf(null, '![x](a.jpg)\n\n## A *sea* of [words](https://w.example), 2 \\* 3[^1]\n\n[^1]: A note.'),
      'A sea of words, 2 * 3',
      'an excerpt is plain text',
    );
  });

  it('reads dates as UTC', () => {
    assert.equal(isoDate('2024-05-01 09:00:00'), '2024-05-01T09:00:00.000Z');
    assert.equal(isoDate('Jul 08 2022'), '2022-07-08T00:00:00.000Z');
    assert.equal(isoDate('2024-05-01T12:00:00+03:00'), '2024-05-01T09:00:00.000Z');
    assert.equal(isoDate(1388318310783), '2013-12-29T11:58:30.783Z');
    assert.equal(isoDate('0000-00-00 00:00:00'), null);
    assert.equal(isoDate('soon'), null);
  });
});
