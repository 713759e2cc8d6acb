import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';

import { type ParsedExport, parseExport } from '../source.js';
import { byTitle, fixture, LIMITS, makeZip, scratch } from './spec-support.js';

describe('WordPress WXR: the theme unit test data (WPTT)', () => {
  let parsed: ParsedExport;
  before(async () => {
    parsed = await parseExport(fixture('wordpress-theme-unit-test.xml'), LIMITS);
  });

  it('lists its 51 posts and 21 pages; menus and attachments are not items', () => {
    assert.equal(parsed.format, 'wordpress');
    assert.equal(parsed.items.length, 72);
    assert.equal(parsed.items.filter((i) => i.type === 'post').length, 51);
    assert.equal(parsed.items.filter((i) => i.type === 'page').length, 21);
    assert.deepEqual(parsed.warnings, []);
    assert.equal(parsed.archive, null);
    const about = byTitle(parsed, 'About The Tests');
    assert.equal(about.type, 'page');
    assert.equal(about.slug, 'about');
    assert.equal(about.sourceId, 'wordpress:2');
  });

  it('maps statuses and UTC dates: future is scheduled, draft stays a draft', () => {
    const scheduled = byTitle(parsed, 'Scheduled');
    assert.equal(scheduled.status, 'scheduled');
    assert.equal(scheduled.date, '2030-01-01T19:00:18.000Z');
    const draft = byTitle(parsed, 'Draft');
    assert.equal(draft.status, 'draft');
    assert.equal(draft.slug, null);
    assert.equal(parsed.items.filter((i) => i.status === 'published').length, 70);
    assert.equal(byTitle(parsed, 'Post Format: Standard').date, '2010-10-05T07:27:25.000Z');
  });

  it('keeps categories and tags apart, decoded', () => {
    const standard = byTitle(parsed, 'Post Format: Standard');
    assert.deepEqual(standard.categories, ['Classic', 'Post Formats']);
    assert.deepEqual(standard.tags, ['Post Formats', 'readability', 'standard']);
    assert.equal(byTitle(parsed, 'Edge Case: Many Categories').categories.length, 62);
    assert.ok(byTitle(parsed, 'Scheduled').tags.includes('content περιεχόμενο'));
  });

  it('gives the featured image (via _thumbnail_id) as the cover, with its alt text', () => {
    assert.deepEqual(byTitle(parsed, 'Template: Featured Image (Horizontal)').cover, {
      ref: 'https://wpthemetestdata.files.wordpress.com/2013/03/featured-image-horizontal.jpg',
      alt: 'Horizontal Featured Image',
    });
    assert.equal(parsed.items.filter((i) => i.cover).length, 5);
  });

  it('turns a [caption] shortcode into its image paragraph and its text', () => {
    const caption = byTitle(parsed, 'Post Format: Image (Caption)');
    const image = { ref: 'https://wpthemetestdata.files.wordpress.com/2008/06/100_5478.jpg?w=604', alt: 'Bell on Wharf' };
    assert.deepEqual(caption.images, [image]);
    assert.equal(caption.content, `![Bell on Wharf](${image.ref})\n\nBell on wharf in San Francisco`);
    assert.equal(
      parsed.items.reduce((n, i) => n + i.images.length, 0),
      130,
    );
  });

  it('flattens titles with markup and entities, and keeps a defined excerpt', () => {
    assert.ok(byTitle(parsed, 'Markup: Title With Markup'));
    assert.ok(parsed.items.some((i) => i.title === `Markup: Title With Special Characters ~\`!@#$%^&*()-_=+{}[]/\\;:'"?,.>`));
    const defined = byTitle(parsed, 'Template: Excerpt (Defined)');
    assert.match(defined.excerpt, /^This is a user-defined post excerpt\./);
    assert.equal(
      defined.content,
      'This is the post content. It **should** be displayed in place of the user-defined excerpt in single-page views.',
    );
    assert.equal(
      byTitle(parsed, 'Post Format: Link').content,
      '[The WordPress Theme Review Team Website](https://make.wordpress.org/themes)',
    );
  });

  it('detects the language of each item (all English here) and pairs none', () => {
    assert.ok(parsed.items.every((i) => i.language === 'en'));
    assert.ok(parsed.items.every((i) => Object.keys(i.translations).length === 0));
  });
});

const wxr = (items: string) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
<title>Bilingual</title>
<link>https://writer.example</link>
<wp:base_blog_url>https://writer.example</wp:base_blog_url>
${items}
</channel>
</rss>`;

const item = (fields: Record<string, string>, extra = '') => `<item>
${Object.entries(fields)
  .map(([k, v]) => `<${k}><![CDATA[${v}]]></${k}>`)
  .join('\n')}
${extra}
</item>`;

const meta = (key: string, value: string) =>
  `<wp:postmeta><wp:meta_key>${key}</wp:meta_key><wp:meta_value><![CDATA[${value}]]></wp:meta_value></wp:postmeta>`;
const term = (domain: string, nicename: string, name = nicename) =>
  `<category domain="${domain}" nicename="${nicename}"><![CDATA[${name}]]></category>`;
const post = (id: number, title: string, content: string, status = 'publish', type = 'post') => ({
  title,
  'content:encoded': content,
  'excerpt:encoded': '',
  'wp:post_id': String(id),
  'wp:post_date': '2024-05-01 12:00:00',
  'wp:post_date_gmt': '2024-05-01 09:00:00',
  'wp:post_name': `post-${id}`,
  'wp:status': status,
  'wp:post_type': type,
});

function bilingualWxr(): string {
  const classic =
    'First line of a classic post  \nwith a line break.\n\n[caption id="attachment_9" align="alignnone"]<img src="/wp-content/uploads/olive.jpg" alt="Olive tree" /> The old tree[/caption]\n\n' +
    '<script>alert(1)</script><iframe src="https://video.example/1"></iframe>Read <a href="https://news.example/a">the report</a> &amp; <a href="https://news.example/b">https://news.example/b</a>.';
  return wxr(
    [
      item(
        post(10, 'Olives', classic),
        term('language', 'en', 'English') + term('post_translations', 'pll_1', 'pll_1') + term('category', 'news', 'News'),
      ),
      item(
        post(11, 'زيتون', '<!-- wp:paragraph --><p>شجرة الزيتون القديمة</p><!-- /wp:paragraph -->'),
        term('language', 'ar', 'العربية') + term('post_translations', 'pll_1', 'pll_1'),
      ),
      item(
        post(20, 'البحر', '<p>البحر في غزة</p>'),
        meta('_wpml_import_language_code', 'ar') +
          meta('_wpml_import_translation_group', '77') +
          meta('_wpml_import_source_language_code', ''),
      ),
      item(
        post(21, 'The sea', '<p>The sea in Gaza</p>'),
        meta('_wpml_import_language_code', 'en') +
          meta('_wpml_import_translation_group', '77') +
          meta('_wpml_import_source_language_code', 'ar'),
      ),
      item(post(30, 'مقالة', '<h2>عنوان</h2><ul><li>أول</li><li>ثاني</li></ul>')),
      item(post(40, 'Binned', '<p>gone</p>', 'trash')),
      item(post(41, 'A product', '<p>shop</p>', 'publish', 'product')),
      item(post(42, 'Menu', '', 'publish', 'nav_menu_item')),
    ].join('\n'),
  );
}

describe('WordPress WXR: translations, HTML and skipped items (a small file written here)', () => {
  let parsed: ParsedExport;
  const files = scratch();
  before(async () => {
    const body = bilingualWxr();
    const dir = await files;
    parsed = await parseExport(await dir.write('bilingual.xml', body), LIMITS);
  });
  after(async () => (await files).remove());

  it('pairs Polylang translations (post_translations term) into the English item', () => {
    const olives = byTitle(parsed, 'Olives');
    assert.equal(olives.language, 'en');
    assert.deepEqual(Object.keys(olives.translations), ['ar']);
    assert.equal(olives.translations.ar?.title, 'زيتون');
    assert.equal(olives.translations.ar?.sourceId, 'wordpress:11');
    assert.equal(olives.translations.ar?.content, 'شجرة الزيتون القديمة');
    assert.ok(!parsed.items.some((i) => i.title === 'زيتون'));
  });

  it('pairs WPML translations (translation group) into the original, here the Arabic one', () => {
    const sea = byTitle(parsed, 'البحر');
    assert.equal(sea.language, 'ar');
    assert.equal(sea.translations.en?.title, 'The sea');
    assert.ok(!parsed.items.some((i) => i.title === 'The sea'));
  });

  it('detects Arabic where no language is declared', () => {
    const article = byTitle(parsed, 'مقالة');
    assert.equal(article.language, 'ar');
    assert.equal(article.content, '## عنوان\n\n- أول\n- ثاني');
  });

  it('writes classic content as Markdown: line breaks, caption text, links; scripts and iframes dropped', () => {
    const olives = byTitle(parsed, 'Olives');
    assert.equal(
      olives.content,
      'First line of a classic post  \nwith a line break.\n\n![Olive tree](https://writer.example/wp-content/uploads/olive.jpg)\n\nThe old tree\n\n' +
        'Read [the report](https://news.example/a) & <https://news.example/b>.',
    );
    assert.deepEqual(olives.images, [{ ref: 'https://writer.example/wp-content/uploads/olive.jpg', alt: 'Olive tree' }]);
    assert.equal(olives.excerpt, 'First line of a classic post with a line break.');
    assert.equal(olives.date, '2024-05-01T09:00:00.000Z');
    assert.deepEqual(olives.categories, ['News']);
  });

  it('skips the trash and unknown types with a warning, menus silently', () => {
    assert.deepEqual(
      parsed.items.map((i) => i.title),
      ['Olives', 'البحر', 'مقالة'],
    );
    assert.deepEqual(parsed.warnings, [
      { title: 'Binned', message: 'Skipped: it is in the WordPress trash.' },
      { title: 'A product', message: 'Skipped: its type "product" is neither a post nor a page.' },
    ]);
  });
});

describe('WordPress.com zip: WXR files inside a zip', () => {
  const files = scratch();
  after(async () => (await files).remove());

  it('reads every WXR file of the zip as one export', async () => {
    const zip = makeZip([
      { name: 'site.wordpress.2024-05-01.000.xml', data: await readFile(fixture('wordpress-theme-unit-test.xml')) },
      { name: 'site.wordpress.2024-05-01.001.xml', data: wxr(item(post(5000, 'One more', '<p>The last post.</p>'))) },
    ]);
    const parsed = await parseExport(await (await files).write('wordpress-com.zip', zip), LIMITS);
    await parsed.archive?.close();
    assert.equal(parsed.format, 'wordpress');
    assert.equal(parsed.items.length, 73);
    assert.equal(byTitle(parsed, 'One more').content, 'The last post.');
  });
});

describe('WordPress WXR: a block post with formatting and the footnotes block', () => {
  const files = scratch();
  after(async () => (await files).remove());

  it('keeps its Markdown; the notes come from the post meta, numbered by the order of their references', async () => {
    const blocks =
      '<!-- wp:heading --><h2 class="wp-block-heading">Olive groves</h2><!-- /wp:heading -->\n\n' +
      '<!-- wp:paragraph --><p>The <em>old</em> trees<sup data-fn="b2" class="fn"><a href="#b2" id="b2-link">1</a></sup> and the <strong>new</strong><sup data-fn="a1" class="fn"><a href="#a1" id="a1-link">2</a></sup>, see <a href="https://olives.example/report">the report</a>.</p><!-- /wp:paragraph -->\n\n' +
      '<!-- wp:footnotes /-->';
    const notes = JSON.stringify([
      { content: 'Planted in <em>1948</em>.', id: 'b2' },
      { content: 'Since 2010.', id: 'a1' },
    ]);
    const file = await (await files).write('notes.xml', wxr(item(post(60, 'Groves', blocks), meta('footnotes', notes))));
    const groves = byTitle(await parseExport(file, LIMITS), 'Groves');
    assert.equal(
      groves.content,
      '## Olive groves\n\nThe *old* trees[^1] and the **new**[^2], see [the report](https://olives.example/report).\n\n[^1]: Planted in *1948*.\n\n[^2]: Since 2010.',
    );
    assert.equal(groves.excerpt, 'Olive groves');
  });
});
