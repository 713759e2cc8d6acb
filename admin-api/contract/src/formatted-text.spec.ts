import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { fieldFormat, formattedHtml, formattedMailHtml, formattedPlainText, textImages } from './formatted-text.js';

const md = (text: string, extra = {}) => formattedHtml(text, { format: 'markdown', layout: 'blank-lines', ...extra });

describe('formatted text: plain (the specification, the default)', () => {
  const text =
    '*not* **emphasis**\n# not a heading\n\n> not a quote\n1. not a list\n\n![Olive](/uploads/essays/a.jpg)\n\n<b>x</b> & [l](https://e.org)';
  it('splits an essay on blank lines and escapes everything, as the pages always did', () => {
    assert.equal(
      formattedHtml(text, { format: 'plain', layout: 'blank-lines' }),
      '<p>*not* **emphasis**\n# not a heading</p><p>&gt; not a quote\n1. not a list</p><p>![Olive](/uploads/essays/a.jpg)</p><p>&lt;b&gt;x&lt;/b&gt; &amp; [l](https://e.org)</p>',
    );
  });
  it('splits a news item on each line; an upload image paragraph is the image markup only where asked', () => {
    const image = ({ src, alt }: { src: string; alt: string }) => `<figure data-src="${src}">${alt}</figure>`;
    assert.equal(
      formattedHtml('One *a*\nTwo\n\n![Olive](/uploads/essays/a.jpg)\n![x](https://e.org/a.jpg)', { format: null, layout: 'lines', image }),
      '<p>One *a*</p><p>Two</p><figure data-src="/uploads/essays/a.jpg">Olive</figure><p>![x](https://e.org/a.jpg)</p>',
    );
  });
  it('is its own plain text, image lines as their alt text (search) or nothing (excerpts)', () => {
    assert.equal(formattedPlainText('# a *b*\n![Olive](/uploads/a.jpg)', 'plain', true), '# a *b*\nOlive');
    assert.equal(formattedPlainText('# a *b*\n![Olive](/uploads/a.jpg)', 'plain'), '# a *b*\n');
  });
  it('only the formatted field of a kind follows the item’s textFormat', () => {
    assert.equal(fieldFormat('essays', 'content', { textFormat: 'markdown' }), 'markdown');
    assert.equal(fieldFormat('essays', 'excerpt', { textFormat: 'markdown' }), 'plain');
    assert.equal(fieldFormat('plays', 'content', { textFormat: 'markdown' }), 'plain');
    assert.equal(fieldFormat('books', 'description', {}), 'plain');
  });
});

describe('formatted text: Markdown', () => {
  it('renders emphasis, strong, quotes and lists', () => {
    assert.equal(md('*a* **b** _c_'), '<p><em>a</em> <strong>b</strong> <em>c</em></p>');
    assert.equal(md('> quoted'), '<blockquote>\n<p>quoted</p>\n</blockquote>');
    assert.equal(md('- one\n- two'), '<ul>\n<li>one</li>\n<li>two</li>\n</ul>');
    assert.equal(md('1. one'), '<ol>\n<li>one</li>\n</ol>');
  });
  it('shows raw HTML as text (raw HTML off)', () => {
    assert.equal(md('<script>alert(1)</script>'), '&lt;script&gt;alert(1)&lt;/script&gt;');
    assert.equal(md('a <img src=x onerror=alert(1)> b'), '<p>a &lt;img src=x onerror=alert(1)&gt; b</p>');
  });
  it('links only to http(s), mailto and the site’s own paths; anything else is its text', () => {
    assert.equal(md('[x](javascript:alert(1))'), '<p>x</p>');
    assert.equal(md('[x](data:text/html,hi) [y](//evil.example/a) [z](ftp://e.org)'), '<p>x y z</p>');
    assert.equal(md('[own](/books/3)', { href: (h: string) => `/ar${h}` }), '<p><a href="/ar/books/3">own</a></p>');
  });
  it('marks external links (class and rel), never the site’s own', () => {
    assert.equal(md('[e](https://e.org/a)'), '<p><a href="https://e.org/a" class="external" rel="noopener">e</a></p>');
    assert.equal(md('[m](mailto:a@e.org)'), '<p><a href="mailto:a@e.org" class="external" rel="noopener">m</a></p>');
  });
  it('shows images only from the site’s uploads, through the image markup it is given; others as their alt text', () => {
    const image = ({ src, alt, block }: { src: string; alt: string; block: boolean }) =>
      `<pic ${block ? 'block' : 'inline'} ${src} ${alt}>`;
    assert.equal(md('![Olive](/uploads/essays/a.jpg)', { image }), '<pic block /uploads/essays/a.jpg Olive>');
    assert.equal(md('See ![Olive](/uploads/essays/a.jpg) here', { image }), '<p>See <pic inline /uploads/essays/a.jpg Olive> here</p>');
    assert.equal(md('![Away](https://evil.example/a.png)', { image }), '<p>Away</p>');
    assert.equal(md('![Up](/uploads/../etc/passwd)', { image }), '<p>Up</p>');
    assert.deepEqual(
      textImages('![A](/uploads/a.jpg)\n\nx ![B](/uploads/b.jpg)\n\n![C](https://e.org/c.jpg)', {
        format: 'markdown',
        layout: 'blank-lines',
      }),
      [
        { src: '/uploads/a.jpg', alt: 'A', block: true },
        { src: '/uploads/b.jpg', alt: 'B', block: false },
      ],
    );
  });
  it('starts headings at h2 (the page has the h1), keeping their order below', () => {
    assert.equal(md('# A\n\n## B\n\n### C'), '<h2>A</h2>\n<h3>B</h3>\n<h4>C</h4>');
    assert.equal(md('## A\n\n### B'), '<h2>A</h2>\n<h3>B</h3>');
  });
  it('numbers footnotes with back links, ids prefixed so two versions on one page do not clash', () => {
    const html = md('Text[^n].\n\n[^n]: The note.', { idPrefix: 'ar-', footnotes: { heading: 'الحواشي', backLabel: 'عودة {0}' } });
    assert.match(html, /<p>Text<sup><a id="ar-fn-ref-n" href="#ar-fn-n"[^>]*>1<\/a><\/sup>.<\/p>/);
    assert.match(html, /<section class="footnotes"[^>]*>\n<h2 id="ar-fn-label" class="visually-hidden">الحواشي<\/h2>/);
    assert.match(html, /<li id="ar-fn-n">\n<p>The note. <a href="#ar-fn-ref-n" data-ar-fn-backref aria-label="عودة n">↩<\/a><\/p>/);
    assert.ok(html.indexOf('<section') > html.indexOf('Text'), 'the notes come after the text');
  });
  it('gives its words alone for search, excerpts and descriptions: no markup, no Markdown syntax', () => {
    const text =
      '# Title\n\nSome *em*, **strong** and [a link](https://e.org) &amp; `code`[^1].\n\n> quote\n\n- item\n\n![Olive](/uploads/a.jpg)\n\n[^1]: A note.';
    assert.equal(
      formattedPlainText(text, 'markdown', true),
      'Title\n\nSome em, strong and a link & code.\n\nquote\n\nitem\n\nOlive\n\nA note.',
    );
    assert.equal(formattedPlainText(text, 'markdown').includes('Olive'), false);
  });
});

describe('formatted text in a mail', () => {
  it('styles every element inline, makes the site’s links and images absolute and keeps Arabic right to left', () => {
    const html = formattedMailHtml(
      '## عنوان\n\nنص *مائل* و[رابط](/books/3) و[خارجي](https://e.org).\n\n![صورة](/uploads/a.jpg)\n\n> اقتباس',
      {
        format: 'markdown',
        layout: 'blank-lines',
        siteUrl: 'https://site.example',
        lang: 'ar',
        dir: 'rtl',
      },
    );
    assert.match(html, /^<div lang="ar" dir="rtl" style="text-align:right;">/);
    assert.match(html, /<h2 style="[^"]+">عنوان<\/h2>/);
    assert.match(html, /<a style="[^"]+" href="https:\/\/site.example\/books\/3">رابط<\/a>/);
    assert.match(html, /<img style="[^"]+" src="https:\/\/site.example\/uploads\/a.jpg" alt="صورة">/);
    assert.match(html, /<blockquote style="[^"]*border-inline-start[^"]*">/);
    assert.equal(/<(p|h2|a|img|blockquote)(?![^>]*style=)[\s>]/.test(html), false, 'every element carries its style');
  });
  it('leads a link to a page of the site to that page in the reader’s language; pictures stay where they are', () => {
    const options = { format: 'markdown', layout: 'blank-lines', siteUrl: 'https://site.example', lang: 'en', dir: 'ltr' } as const;
    const text = '[Books](/books) ![p](/uploads/a.jpg)';
    assert.match(formattedMailHtml(text, { ...options, reader: 'ar' }), /href="https:\/\/site.example\/ar\/books"/);
    assert.match(formattedMailHtml(text, { ...options, reader: 'ar' }), /src="https:\/\/site.example\/uploads\/a.jpg"/);
    assert.match(formattedMailHtml(text, { ...options, reader: 'en' }), /href="https:\/\/site.example\/books"/);
  });
});

describe('formatted text: pictures', () => {
  it('a picture alone in its paragraph is a figure; inside a link or a heading it is inline, as the page renders it', () => {
    const images = (text: string) => textImages(text, { format: 'markdown', layout: 'blank-lines' }).map((i) => i.block);
    assert.deepEqual(images('![a](/uploads/x.jpg)'), [true]);
    assert.deepEqual(images('[![a](/uploads/x.jpg)](https://e.org)'), [false]);
    assert.deepEqual(images('## ![a](/uploads/x.jpg)'), [false]);
  });
});

describe('formatted text: what an author cannot slip in', () => {
  it('a footnote label never reaches an attribute as written: no attribute of its own, no id of the notes heading', () => {
    const html = md(
      'Text[^x" onfocus="alert(1)" autofocus tabindex="0] and[^label].\n\n[^x" onfocus="alert(1)" autofocus tabindex="0]: A.\n\n[^label]: B.',
    );
    assert.doesNotMatch(html, /\s(onfocus|autofocus|tabindex)[\s=>]/);
    assert.equal(html.match(/"/g)!.length % 2, 0);
    assert.equal(html.match(/id="fn-label"/g)?.length, 1, html);
    // The reference still leads to its note and back.
    const ref = html.match(/href="#(fn-[^"]+)"/)![1];
    assert.match(html, new RegExp(`<li id="${ref}">`));
  });
  it('a link with a blank or control character in it is its text (a browser drops them: `/\\t/host` is `//host`)', () => {
    assert.equal(md('[x](</\t/evil.example>)'), '<p>x</p>');
    assert.equal(md('[x](</\n/evil.example>)').includes('href'), false);
  });
  it('an image under /uploads/ whose path climbs out of it, percent-encoded too, is its alt text', () => {
    for (const src of ['/uploads/%2e%2e/api/x.png', '/uploads/a/%2E./x.png', '/uploads/a%2f..%2fb.png', '/uploads/%zz.png'])
      assert.equal(md(`![alt](${src})`), '<p>alt</p>', src);
    assert.match(md('![alt](/uploads/essays/a%20b.png)'), /<img src="\/uploads\/essays\/a%20b.png"/);
  });
  it('a news item in Markdown keeps each line on its own line (the specification splits news on line breaks)', () => {
    assert.equal(formattedHtml('One *a*\nTwo', { format: 'markdown', layout: 'lines' }), '<p>One <em>a</em><br>Two</p>');
  });
});
