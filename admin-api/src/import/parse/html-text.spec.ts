import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { excerptOf, isoDate } from './common.js';
import { htmlInlineText, htmlToText, stripShortcodes } from './html-text.js';

describe('a title written as HTML', () => {
  it('is the text it shows: tags go, their text stays, an image is nothing, never image syntax', () => {
    assert.equal(htmlInlineText('<svg onload=alert(1)> SVG title'), 'SVG title');
    assert.equal(htmlInlineText('"><img src=x onerror=alert(1)> Quote title'), '"> Quote title');
    assert.equal(htmlInlineText('Markup: Title <em>With</em> <b>Mark<sup>up</sup></b>'), 'Markup: Title With Markup');
    assert.equal(htmlInlineText('<script>alert(1)</script>Tom &amp; Jerry<style>p{}</style>'), 'Tom & Jerry');
    assert.equal(htmlInlineText('<p>One</p><p>Two<br>three</p>'), 'One Two three');
  });
});

describe('HTML as plain paragraphs', () => {
  it('gives headings, list items and block quotes their own paragraphs, <br> a newline', () => {
    const { content } = htmlToText(
      '<h2>Title</h2><p>One<br/>two</p><ol><li>First</li><li>Second <em>item</em></li></ol><blockquote><p>Quoted</p></blockquote>',
    );
    assert.equal(content, 'Title\n\nOne\ntwo\n\nFirst\n\nSecond item\n\nQuoted');
  });

  it('keeps links readable, once: the address only when it differs from the text', () => {
    const { content } = htmlToText(
      '<p><a href="https://a.example/x">the text</a>, <a href="https://b.example/">b.example</a>, <a href="/relative">local</a>, <a href="mailto:me@example.org">write</a></p>',
    );
    assert.equal(content, 'the text (https://a.example/x), b.example, local, write (me@example.org)');
  });

  it('drops scripts, styles, iframes, forms and comments, and decodes entities', () => {
    const { content } = htmlToText(
      '<!-- wp:paragraph --><p>Tom &amp; Jerry&nbsp;&mdash; &#x201C;hi&#x201D;</p><!-- /wp:paragraph --><script>x()</script><style>p{}</style><iframe src="https://v.example"></iframe><form><button>Send</button></form>',
    );
    assert.equal(content, 'Tom & Jerry — “hi”');
  });

  it('makes each inline image its own paragraph and lists it, resolving its address', () => {
    const text = htmlToText('<p>Before <img src="/a.jpg" alt="A [1]"> after</p><p><img src="data:image/png;base64,xx"></p>', {
      resolveImage: (src) => `https://site.example${src}`,
    });
    assert.equal(text.content, 'Before\n\n![A 1](https://site.example/a.jpg)\n\nafter');
    assert.deepEqual(text.images, [{ ref: 'https://site.example/a.jpg', alt: 'A [1]' }]);
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
