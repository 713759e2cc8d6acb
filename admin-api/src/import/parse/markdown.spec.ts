import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { type ParsedExport, parseExport } from '../source.js';
import { byTitle, fixture, folderEntries, LIMITS, makeZip, scratch } from './spec-support.js';

describe("Markdown: Astro's blog example (a content collection), as a folder and as a zip", () => {
  const files = scratch();
  let folder: ParsedExport;
  let zipped: ParsedExport;
  before(async () => {
    folder = await parseExport(fixture('markdown-astro-blog'), LIMITS);
    const zip = makeZip(await folderEntries(fixture('markdown-astro-blog'), 'my-blog/'));
    zipped = await parseExport(await (await files).write('blog.zip', zip), LIMITS);
  });
  after(async () => {
    await folder.archive?.close();
    await zipped.archive?.close();
    await (await files).remove();
  });

  it('lists the five posts with titles, UTC dates and descriptions', () => {
    assert.equal(folder.format, 'markdown');
    assert.deepEqual(
      folder.items.map((i) => [i.sourceId, i.title, i.date, i.status, i.type, i.slug]),
      [
        ['markdown:content/blog/first-post', 'First post', '2022-07-08T00:00:00.000Z', 'published', 'post', 'first-post'],
        [
          'markdown:content/blog/markdown-style-guide',
          'Markdown Style Guide',
          '2024-06-19T00:00:00.000Z',
          'published',
          'post',
          'markdown-style-guide',
        ],
        ['markdown:content/blog/second-post', 'Second post', '2022-07-15T00:00:00.000Z', 'published', 'post', 'second-post'],
        ['markdown:content/blog/third-post', 'Third post', '2022-07-22T00:00:00.000Z', 'published', 'post', 'third-post'],
        ['markdown:content/blog/using-mdx', 'Using MDX', '2024-06-01T00:00:00.000Z', 'published', 'post', 'using-mdx'],
      ],
    );
    assert.equal(byTitle(folder, 'First post').excerpt, 'Lorem ipsum dolor sit amet');
    assert.deepEqual(folder.warnings, []);
  });

  it('resolves heroImage and inline images to files of the archive, readable through it', async () => {
    assert.deepEqual(byTitle(folder, 'First post').cover, { ref: 'src/assets/blog-placeholder-3.jpg', alt: '' });
    const guide = byTitle(folder, 'Markdown Style Guide');
    assert.deepEqual(guide.images, [{ ref: 'src/assets/blog-placeholder-about.jpg', alt: 'blog placeholder' }]);
    assert.ok(guide.content.includes('\n\n![blog placeholder](src/assets/blog-placeholder-about.jpg)\n\n'));
    assert.equal((await folder.archive!.read('src/assets/blog-placeholder-3.jpg'))?.length, 28687);
    assert.equal(await folder.archive!.read('../package.json'), null);
  });

  it('writes MDX as Markdown: imports dropped, components reduced to their text, links kept', () => {
    assert.equal(
      byTitle(folder, 'Using MDX').content,
      [
        'This theme comes with the [@astrojs/mdx](https://docs.astro.build/en/guides/integrations-guide/mdx/) integration installed and configured in your `astro.config.mjs` config file. If you prefer not to use MDX, you can disable support by removing the integration from your config file.',
        '## Why MDX?',
        'MDX is a special flavor of Markdown that supports embedded JavaScript & JSX syntax. This unlocks the ability to [mix JavaScript and UI Components into your Markdown content](https://docs.astro.build/en/guides/integrations-guide/mdx/#mdx-in-astro) for things like interactive charts or alerts.',
        'If you have existing content authored in MDX, this integration will hopefully make migrating to Astro a breeze.',
        '## Example',
        'Here is how you import and use a UI component inside of MDX.  \nWhen you open this page in the browser, you should see the clickable button below.',
        'Embedded component in MDX',
        '## More Links',
        '- [MDX Syntax Documentation](https://mdxjs.com/docs/what-is-mdx)\n' +
          '- [Astro Usage Documentation](https://docs.astro.build/en/basics/astro-pages/#markdownmdx-pages)\n' +
          '- **Note:** [Client Directives](https://docs.astro.build/en/reference/directives-reference/#client-directives) are still required to create interactive components. Otherwise, all components in your MDX will render as static HTML (no JavaScript) by default.',
      ].join('\n\n'),
    );
  });

  it('gives the same items from a zip with a wrapping folder', () => {
    assert.equal(zipped.format, 'markdown');
    assert.deepEqual(
      zipped.items.map((i) => [i.sourceId, i.title, i.date, i.content.replaceAll('](my-blog/', '](')]),
      folder.items.map((i) => [i.sourceId, i.title, i.date, i.content]),
    );
    assert.deepEqual(byTitle(zipped, 'First post').cover, { ref: 'my-blog/src/assets/blog-placeholder-3.jpg', alt: '' });
  });
});

describe('Markdown: Jekyll and Hugo front matter, translations (files written here)', () => {
  const files = scratch();
  let parsed: ParsedExport;
  before(async () => {
    const zip = makeZip([
      {
        name: 'site/_posts/2021-03-04-olive-harvest.md',
        data: '---\ntitle: "Olive harvest"\ncategories: essays memory\ntags: [olives, autumn]\ntranslationKey: harvest\nimage: /assets/img/olives.jpg\n---\n\nThe harvest *began* early.\n\n![Trees](/assets/img/trees.jpg)\n',
      },
      {
        name: 'site/_posts/2021-03-04-qataf.md',
        data: '---\ntitle: "قطاف الزيتون"\nlang: ar\ntranslationKey: harvest\n---\n\nبدأ القطاف مبكراً.\n',
      },
      { name: 'site/assets/img/olives.jpg', data: 'jpg' },
      {
        name: 'site/content/posts/sea/index.md',
        data: '+++\ntitle = "The sea"\ndate = 2022-06-01T10:00:00+03:00\ndraft = true\ntags = ["sea"]\n[cover]\nimage = "cover.png"\nalt = "Waves"\n+++\nSalt and light.\n',
      },
      { name: 'site/content/posts/sea/index.ar.md', data: '+++\ntitle = "البحر"\n+++\nملح وضوء.\n' },
      { name: 'site/content/about.md', data: '---\ntitle: About\nlayout: page\n---\nWho I am.\n' },
      { name: 'site/content/broken.md', data: '---\ntitle: [unclosed\n---\nText\n' },
      { name: 'site/content/notes.md', data: 'Just notes, no front matter.\n' },
      { name: 'site/README.md', data: '# Readme\n' },
      { name: 'site/src/content/blog/en/wall.md', data: '---\ntitle: The wall\npubDate: 2020-02-02\n---\nA wall.\n' },
      { name: 'site/src/content/blog/ar/wall.md', data: '---\ntitle: Al-Jidar\n---\nA wall, in a folder of its language.\n' },
    ]);
    parsed = await parseExport(await (await files).write('site.zip', zip), LIMITS);
  });
  after(async () => {
    await parsed.archive?.close();
    await (await files).remove();
  });

  it('reads Jekyll dates and slugs from the file name, categories and tags from YAML', () => {
    const harvest = byTitle(parsed, 'Olive harvest');
    assert.equal(harvest.date, '2021-03-04T00:00:00.000Z');
    assert.equal(harvest.slug, 'olive-harvest');
    assert.equal(harvest.sourceId, 'markdown:_posts/2021-03-04-olive-harvest');
    assert.deepEqual(harvest.categories, ['essays', 'memory']);
    assert.deepEqual(harvest.tags, ['olives', 'autumn']);
    assert.deepEqual(harvest.cover, { ref: 'site/assets/img/olives.jpg', alt: '' });
    assert.equal(harvest.content, 'The harvest *began* early.\n\n![Trees](assets/img/trees.jpg)');
  });

  it('pairs translations by translationKey, and Hugo’s index.md / index.ar.md', () => {
    const harvest = byTitle(parsed, 'Olive harvest');
    assert.equal(harvest.translations.ar?.title, 'قطاف الزيتون');
    assert.equal(harvest.translations.ar?.content, 'بدأ القطاف مبكراً.');
    const sea = byTitle(parsed, 'The sea');
    assert.equal(sea.translations.ar?.title, 'البحر');
    assert.equal(sea.translations.ar?.sourceId, 'markdown:content/posts/sea/index.ar');
    assert.ok(!parsed.items.some((i) => i.language === 'ar'));
  });

  it('pairs Astro-style language folders (blog/en/wall.md and blog/ar/wall.md)', () => {
    const wall = byTitle(parsed, 'The wall');
    assert.equal(wall.language, 'en');
    assert.equal(wall.translations.ar?.title, 'Al-Jidar');
    assert.equal(wall.translations.ar?.sourceId, 'markdown:content/blog/ar/wall');
  });

  it('reads TOML front matter: draft, zoned date in UTC, cover with alt, page bundles', () => {
    const sea = byTitle(parsed, 'The sea');
    assert.equal(sea.status, 'draft');
    assert.equal(sea.date, '2022-06-01T07:00:00.000Z');
    assert.equal(sea.slug, 'sea');
    assert.deepEqual(sea.tags, ['sea']);
    assert.deepEqual(sea.cover, { ref: 'site/content/posts/sea/cover.png', alt: 'Waves' });
    assert.equal(byTitle(parsed, 'About').type, 'page');
  });

  it('warns about a file whose front matter is broken or missing; a README is not content', () => {
    assert.deepEqual(
      parsed.items.map((i) => i.title),
      ['Olive harvest', 'About', 'The sea', 'The wall'],
    );
    assert.deepEqual(parsed.warnings, [
      { title: 'site/content/broken.md', message: 'Skipped: its front matter is not valid YAML (line 2).' },
      { title: 'site/content/notes.md', message: 'Skipped: the file has no front matter (title, date), so it is not a post.' },
    ]);
  });
});
