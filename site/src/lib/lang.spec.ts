import { describe, expect, it } from 'vitest';

import { essayParagraphs } from './content';
import { fieldHtml, fieldVersions, langPath, localHref, pageLang, plainText, specPath, uiTextWithField } from './lang';
import { outputFile } from './routes';

const essay = (over: Record<string, unknown> = {}) =>
  ({
    title: 'The Sea',
    excerpt: 'Short',
    content: 'Text',
    publication: null,
    category: null,
    contentLanguage: null,
    translations: {},
    ...over,
  }) as never;

describe('addresses', () => {
  it('knows the fixed language of a page from its address', () => {
    expect(pageLang('/ar')).toBe('ar');
    expect(pageLang('/ar/')).toBe('ar');
    expect(pageLang('/ar/books/3')).toBe('ar');
    expect(pageLang('/ar/index.html')).toBe('ar');
    expect(pageLang('/books/3')).toBeNull();
    expect(pageLang('/')).toBeNull();
    expect(pageLang('/arabic-art')).toBeNull();
  });

  it('pairs every page with its other-language address both ways', () => {
    for (const [spec, ar] of [
      ['/', '/ar/'],
      ['/books', '/ar/books'],
      ['/books/3', '/ar/books/3'],
      ['/book/3/reviews', '/ar/book/3/reviews'],
    ]) {
      expect(langPath('ar', spec)).toBe(ar);
      expect(specPath(ar)).toBe(spec);
      expect(langPath('ar', ar)).toBe(ar);
      expect(langPath('en', ar)).toBe(spec);
      expect(specPath(spec)).toBe(spec);
    }
    expect(specPath('/ar')).toBe('/');
  });

  it('publishes the Arabic home page as a folder index (/ar/ → ar/index.html)', () => {
    expect(outputFile('/ar')).toBe('ar/index.html');
    expect(outputFile('/ar/books')).toBe('ar/books.html');
    expect(outputFile('/ar/rss/essays.xml')).toBe('ar/rss/essays.xml');
  });
});

describe('localHref', () => {
  it('makes page links of an /ar/ page at /ar/ addresses, keeping files, the API, feeds of /ar/ and the switch', () => {
    const links = {
      '/': '/ar/',
      '/books/3#reviews': '/ar/books/3#reviews',
      '/essays?page=2': '/ar/essays?page=2',
      '/rss/essays.xml': '/ar/rss/essays.xml',
      '/books/3?lang=en': '/books/3?lang=en',
      '/uploads/books/a.pdf': '/uploads/books/a.pdf',
      '/api/books/3/download': '/api/books/3/download',
      '/ar/books': '/ar/books',
      '/ar': '/ar',
      'https://example.com/books': 'https://example.com/books',
      '//cdn.example.com/x': '//cdn.example.com/x',
      '/_astro/app.css': '/_astro/app.css',
      '/favicon.svg': '/favicon.svg',
      '#main': '#main',
    };
    for (const [href, ar] of Object.entries(links)) {
      expect(localHref('ar', href)).toBe(ar);
      // The specification's addresses link as written.
      expect(localHref(null, href)).toBe(href);
      expect(localHref('en', href)).toBe(href);
    }
  });
});

describe('fieldVersions', () => {
  const both = essay({ contentLanguage: 'en', translations: { ar: { title: 'البحر' } } });

  it('gives both versions on the specification addresses, each in its language', () => {
    expect(fieldVersions('essays', both, 'title', null)).toEqual({
      en: { text: 'The Sea', lang: 'en' },
      ar: { text: 'البحر', lang: 'ar' },
    });
  });

  it('gives the Arabic version on an /ar/ page, and the English text marked as English where there is none', () => {
    expect(fieldVersions('essays', both, 'title', 'ar')).toEqual({ one: { text: 'البحر', lang: 'ar' } });
    expect(fieldVersions('essays', both, 'excerpt', 'ar')).toEqual({ one: { text: 'Short', lang: 'en' } });
  });

  it('gives one version, in its own language, to every reader of an item in one language', () => {
    const arabic = essay({ title: 'عنوان', excerpt: 'مقتطف', content: 'نص' });
    expect(fieldVersions('essays', arabic, 'title', null)).toEqual({ one: { text: 'عنوان', lang: 'ar' } });
    expect(fieldVersions('essays', arabic, 'title', 'ar')).toEqual({ one: { text: 'عنوان', lang: 'ar' } });
    expect(fieldVersions('essays', essay(), 'publication', null)).toEqual({});
  });

  it('reads a blank translation as none', () => {
    const blank = essay({ contentLanguage: 'en', translations: { ar: { title: '  ', excerpt: null } } });
    expect(plainText('essays', blank, 'title', 'ar')).toBe('The Sea');
    expect(plainText('essays', blank, 'excerpt', 'ar')).toBe('Short');
  });
});

describe('fieldHtml', () => {
  it("gives a paragraph its own markup where asked (an image), every other paragraph a <p>, in each language's version", () => {
    const item = essay({
      contentLanguage: 'en',
      content: 'One <b>.\n\n![Sea](/uploads/essays/sea.jpg)',
      translations: { ar: { content: 'واحد\n\n![Sea](/uploads/essays/sea.jpg)' } },
    });
    const figure = (p: string) => (p.startsWith('![') ? '<figure>F</figure>' : null);
    expect(fieldHtml('essays', item, 'content', null, { as: 'div', paragraphs: essayParagraphs, paragraphHtml: figure })).toBe(
      '<div><div data-lang="en" lang="en" dir="ltr"><p>One &lt;b&gt;.</p><figure>F</figure></div>' +
        '<div data-lang="ar" lang="ar" dir="rtl"><p>واحد</p><figure>F</figure></div></div>',
    );
    expect(fieldHtml('essays', item, 'content', 'en', { as: 'div', paragraphs: essayParagraphs })).toBe(
      '<div lang="en" dir="ltr"><p>One &lt;b&gt;.</p><p>![Sea](/uploads/essays/sea.jpg)</p></div>',
    );
  });
});

describe('uiTextWithField', () => {
  const essay = { id: 1, title: 'T', excerpt: 'E', content: 'C', publication: 'The Sea Review', translations: {} };
  it("puts the field into each language's sentence, marking a version in the other language", () => {
    expect(uiTextWithField('essay.publishedIn', 'publication', 'essays', essay as never, 'publication', null)).toBe(
      '<span data-lang="en" lang="en">Published in The Sea Review</span><span data-lang="ar" lang="ar">نُشر في <span lang="en" dir="ltr">The Sea Review</span></span>',
    );
    const both = { ...essay, translations: { ar: { publication: 'مجلة البحر' } } };
    expect(uiTextWithField('essay.publishedIn', 'publication', 'essays', both as never, 'publication', null)).toBe(
      '<span data-lang="en" lang="en">Published in The Sea Review</span><span data-lang="ar" lang="ar">نُشر في مجلة البحر</span>',
    );
  });
});
