import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { type ParsedExport, parseExport } from '../source.js';
import { fixture, folderEntries, LIMITS, makeZip, scratch } from './spec-support.js';

describe("Substack zip: the sample export of Ghost's Substack migrator", () => {
  const files = scratch();
  let parsed: ParsedExport;
  before(async () => {
    const zip = makeZip(await folderEntries(fixture('substack-migrate')));
    parsed = await parseExport(await (await files).write('substack-export.zip', zip), LIMITS);
  });
  after(async () => {
    await parsed.archive?.close();
    await (await files).remove();
  });

  it('lists one item per row of posts.csv, the page as a page, the unpublished one as a draft', () => {
    assert.equal(parsed.format, 'substack');
    assert.deepEqual(
      parsed.items.map((i) => [i.sourceId, i.slug, i.title, i.type, i.status, i.date]),
      [
        ['substack:123401', 'plain-text', 'Plain Text', 'post', 'published', '2019-07-26T20:48:19.814Z'],
        ['substack:123402', 'podcast', 'Comment Buttons', 'post', 'published', '2022-08-12T12:11:23.230Z'],
        ['substack:123403', 'thread', 'Talk to Us', 'post', 'published', '2022-08-12T12:11:23.230Z'],
        ['substack:123404', 'draft-text', 'Plain Text', 'post', 'draft', '2022-08-13T12:11:23.230Z'],
        ['substack:123405', 'about-us', 'About Us', 'page', 'published', '2022-08-13T12:11:23.230Z'],
      ],
    );
    assert.deepEqual(parsed.warnings, []);
  });

  it('takes the subtitle, entities decoded, as the excerpt', () => {
    assert.equal(parsed.items[0].excerpt, '“This quote’s rather short”');
    assert.equal(parsed.items[4].excerpt, 'Learn about us');
  });

  it("writes the post's HTML as Markdown without Substack's subscribe buttons", () => {
    assert.equal(
      parsed.items[0].content,
      '## Lorem Ipsum\n\nLorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt.\n\n' +
        'Dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco.',
    );
    assert.equal(parsed.items[1].content, '## Podcast Episode\n\nDolore magna aliqua.\n\nDolor sit amet.');
    assert.ok(parsed.items.every((i) => i.language === 'en' && i.cover === null && i.images.length === 0));
  });
});

describe('Substack zip: images, covers and missing files (an export written here)', () => {
  const files = scratch();
  let parsed: ParsedExport;
  before(async () => {
    const csv =
      'post_id,post_date,is_published,email_sent_at,inbox_sent_at,type,audience,title,subtitle,podcast_url,cover_image\n' +
      '9001.sea-letter,2023-03-01T10:00:00.000Z,true,,,newsletter,everyone,رسالة البحر,,,https://substack-post-media.example/cover.jpg\n' +
      '9002.lost,2023-03-02T10:00:00.000Z,true,,,newsletter,everyone,Lost,,,\n';
    const html =
      '<div class="captioned-image-container"><figure><a class="image-link" href="https://substackcdn.example/full.jpg"><img src="https://substackcdn.example/img.jpg" alt="موج"></a><figcaption>البحر</figcaption></figure></div>' +
      '<p>كتبت هذه الرسالة<br>على الشاطئ.</p><div class="subscription-widget-wrap"><p>Subscribe now</p></div>';
    const zip = makeZip([
      { name: 'export/posts.csv', data: csv },
      { name: 'export/posts/9001.sea-letter.html', data: html },
    ]);
    parsed = await parseExport(await (await files).write('export.zip', zip), LIMITS);
  });
  after(async () => {
    await parsed.archive?.close();
    await (await files).remove();
  });

  it('reads an Arabic post with its inline image and the cover from the CSV', () => {
    const [letter] = parsed.items;
    assert.equal(letter.language, 'ar');
    assert.equal(letter.content, '![موج](https://substackcdn.example/img.jpg)\n\nالبحر\n\nكتبت هذه الرسالة  \nعلى الشاطئ.');
    assert.deepEqual(letter.images, [{ ref: 'https://substackcdn.example/img.jpg', alt: 'موج' }]);
    assert.deepEqual(letter.cover, { ref: 'https://substack-post-media.example/cover.jpg', alt: '' });
    assert.equal(letter.excerpt, 'البحر');
  });

  it('warns about a row whose HTML file is not in the zip', () => {
    assert.equal(parsed.items.length, 1);
    assert.deepEqual(parsed.warnings, [{ title: 'Lost', message: 'Skipped: its text (posts/9002.lost.html) is not in the export.' }]);
  });
});
