import { CONTENT_KINDS, type ContentKind } from '@portfolio/contract/kinds';
import type { EntityManager } from 'typeorm';

import type { Artwork } from '../artworks/artwork.entity.js';
import type { Book } from '../books/book.entity.js';
import type { Essay } from '../essays/essay.entity.js';
import { queueImageVariants } from '../image-variants/image-variant-jobs.js';
import { KIND_FEATURES } from '../kind-modules.js';
import type { News } from '../news/news.entity.js';
import type { Play } from '../plays/play.entity.js';
import type { OutboxService } from '../publishing/outbox.service.js';
import type { FileStorage } from '../uploads/file-storage.js';

/*
 * Demo content for a fresh install. Everything here is placeholder text, marked "Demo" in its
 * title, written so the author can see each kind of page and then replace or delete it.
 */

type Palette = [string, string, string];
const PALETTES: Palette[] = [
  ['#1f3b4d', '#c8553d', '#f2d0a4'],
  ['#2d4739', '#8fb339', '#e9f5db'],
  ['#3c1642', '#d81e5b', '#f5e6e8'],
  ['#0b2545', '#8da9c4', '#eef4ed'],
  ['#5f0f40', '#fb8b24', '#fdf0d5'],
  ['#283618', '#dda15e', '#fefae0'],
];

/** An abstract composition (no text, so it renders the same without any font installed). */
function abstractSvg(width: number, height: number, [dark, accent, light]: Palette, seed: number) {
  const rnd = (n: number) => {
    const x = Math.sin(seed * 9301 + n * 49297) * 233280;
    return x - Math.floor(x);
  };
  const shapes = Array.from({ length: 7 }, (_, i) => {
    const cx = Math.round(rnd(i) * width);
    const cy = Math.round(rnd(i + 10) * height);
    const r = Math.round((0.08 + rnd(i + 20) * 0.25) * Math.min(width, height));
    const fill = i % 2 ? accent : light;
    return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}" fill-opacity="${(0.25 + rnd(i + 30) * 0.5).toFixed(2)}"/>`;
  }).join('');
  const horizon = Math.round(height * (0.55 + rnd(99) * 0.2));
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
      <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${dark}"/><stop offset="1" stop-color="${accent}"/></linearGradient></defs>
      <rect width="100%" height="100%" fill="url(#g)"/>${shapes}
      <rect y="${horizon}" width="100%" height="${height - horizon}" fill="${dark}" fill-opacity="0.55"/>
    </svg>`,
  );
}

async function image(storage: FileStorage, name: string, width: number, height: number, palette: number) {
  const { default: sharp } = await import('sharp');
  const jpeg = await sharp(abstractSvg(width, height, PALETTES[palette % PALETTES.length], palette + 1))
    .jpeg({ quality: 78, mozjpeg: true })
    .toBuffer();
  // The size in the name, as for uploads: the site lays it out without downloading it.
  return storage.save('demo', `${name}-${width}x${height}.jpg`, jpeg);
}

export interface DemoImages {
  covers: string[];
  artworks: string[];
  news: string[];
  plays: string[];
}

const DEMO_NOTE = 'This is demo content. Sign in with the Admin button to edit or delete it.';
const DEMO_NOTE_AR = 'هذا محتوى تجريبي. سجّل الدخول من زر الإدارة لتعديله أو حذفه.';

async function prepareImages(storage: FileStorage): Promise<DemoImages> {
  const many = (prefix: string, n: number, w: number, h: number, offset: number) =>
    Promise.all(Array.from({ length: n }, (_, i) => image(storage, `${prefix}-${i + 1}`, w, h, i + offset)));
  const [covers, artworks, news, plays] = await Promise.all([
    many('demo-cover', 4, 600, 900, 0),
    many('demo-artwork', 6, 1200, 900, 2),
    many('demo-news', 3, 1200, 675, 4),
    many('demo-play', 2, 1200, 800, 1),
  ]);
  return { covers, artworks, news, plays };
}

async function insert(m: EntityManager, adminId: number, images: DemoImages, outbox: OutboxService) {
  const audit = { createdByUserId: adminId, lastUpdatedByUserId: adminId };
  await queueImageVariants(m, Object.values(images).flat());
  const year = new Date().getUTCFullYear();

  const books: Partial<Book>[] = [
    {
      title: 'Demo: The Olive Keeper',
      description: `A novel of three generations tending one grove by the sea. ${DEMO_NOTE}`,
      year: year - 1,
      publisher: 'Demo Press',
      isbn: '978-0-00-000001-1',
      pages: 284,
      genre: 'Novel',
      language: 'English',
      awards: ['Demo Award for Fiction (placeholder)'],
      reviews: [JSON.stringify({ title: 'Demo review', url: 'https://example.com/demo-review' }), 'https://example.com/demo-press.pdf'],
      coverImage: images.covers[0],
    },
    {
      title: 'تجريبي: بحر على الشرفة',
      description: `مجموعة قصصية عن البيوت والبحر والانتظار. ${DEMO_NOTE_AR}`,
      year: year - 3,
      publisher: 'دار تجريبية للنشر',
      pages: 176,
      genre: 'قصص قصيرة',
      language: 'Arabic',
      coverImage: images.covers[1],
    },
    {
      title: 'Demo: Letters Without Stamps',
      description: `Poems written as letters that could not be sent. ${DEMO_NOTE}`,
      year: year - 5,
      publisher: 'Demo Press',
      genre: 'Poetry',
      language: 'English',
      coverImage: images.covers[2],
    },
    {
      title: 'تجريبي: ألوان الرماد',
      description: `رواية قصيرة عن رسّامة تعيد بناء مرسمها. ${DEMO_NOTE_AR}`,
      year: year - 7,
      publisher: 'دار تجريبية للنشر',
      genre: 'رواية',
      language: 'Arabic',
      coverImage: images.covers[3],
    },
  ];

  const essays: Partial<Essay>[] = [
    {
      title: 'Demo: On Writing by Candlelight',
      excerpt: 'What a power cut teaches about the length of a sentence.',
      content: `When the electricity goes, the sentence gets shorter.\n\nThis paragraph is placeholder text for a demo essay. ${DEMO_NOTE}\n\nA third paragraph shows how blank lines separate paragraphs on the essay page.`,
      publication: 'Demo Quarterly',
      publishedDate: new Date(Date.UTC(year - 1, 4, 12)),
      category: 'Literature',
      featured: true,
    },
    {
      title: 'تجريبي: عن الكتابة والذاكرة',
      excerpt: 'كيف تحفظ الكتابة ما تنساه المدن.',
      content: `الكتابة ذاكرة ثانية.\n\nهذه فقرة تجريبية تُظهر شكل المقال. ${DEMO_NOTE_AR}`,
      publication: 'مجلة تجريبية',
      publishedDate: new Date(Date.UTC(year - 2, 9, 3)),
      category: 'ثقافة',
    },
    {
      title: 'Demo: Colour as Testimony',
      excerpt: 'Why a painter from Gaza keeps returning to blue.',
      content: `Blue is the colour of the sea that cannot be reached.\n\n${DEMO_NOTE}`,
      publishedDate: new Date(Date.UTC(year - 3, 1, 20)),
      category: 'Art',
    },
  ];

  const artworkData: [string, string, string][] = [
    ['Demo: Harbour at Dusk', 'Acrylic on canvas', 'An evening harbour in warm layers.'],
    ['تجريبي: نوافذ', 'ألوان مائية على ورق', 'نوافذ مضاءة في حيّ قديم.'],
    ['Demo: Orange Grove', 'Oil on board', 'A memory of an orchard, in circles of light.'],
    ['تجريبي: انتظار', 'حبر وفحم', 'دراسة للضوء والظل.'],
    ['Demo: Blue Study', 'Mixed media', 'One of a series of blue studies.'],
    ['Demo: Kites', 'Gouache on paper', 'Children’s kites over the beach.'],
  ];
  const artworks: Partial<Artwork>[] = artworkData.map(([title, medium, description], i) => ({
    title,
    medium,
    description: `${description} ${/[\u0600-\u06ff]/.test(title) ? DEMO_NOTE_AR : DEMO_NOTE}`,
    year: year - i,
    image: images.artworks[i],
    featured: i < 2,
  }));

  const news: Partial<News>[] = [
    {
      title: 'Demo: Exhibition opens in spring',
      excerpt: 'A demo announcement of a solo exhibition.',
      content: `The paintings of the last three years will be shown together.\nThis line is a separate paragraph on the news page.\n${DEMO_NOTE}`,
      category: 'exhibition',
      publishedDate: new Date(Date.UTC(year, 0, 15)),
      imageUrl: images.news[0],
    },
    {
      title: 'تجريبي: صدور طبعة جديدة',
      excerpt: '',
      content: `صدرت طبعة جديدة من المجموعة القصصية مع مقدمة جديدة.\n${DEMO_NOTE_AR}`,
      category: 'publication',
      publishedDate: new Date(Date.UTC(year - 1, 10, 2)),
      imageUrl: images.news[1],
    },
    {
      title: 'Demo: Shortlisted for a prize',
      excerpt: 'A demo award announcement.',
      content: `A placeholder news item in the award category.\n${DEMO_NOTE}`,
      category: 'award',
      publishedDate: new Date(Date.UTC(year - 1, 5, 30)),
      imageUrl: images.news[2],
    },
  ];
  // The news excerpt is required; the Arabic item shows the excerpt fallback with a short one.
  news[1].excerpt = 'طبعة جديدة.';

  const plays: Partial<Play>[] = [
    {
      title: 'Demo: The Last Ferry',
      arabicTitle: 'تجريبي: العبّارة الأخيرة',
      description: `A one-act play about a family waiting at a closed port. ${DEMO_NOTE}`,
      content: [
        'ACT ONE',
        'SCENE 1',
        'A pier at night. Two chairs.',
        'Mother: The ferry will come in the morning.',
        'Son: You said that yesterday.',
        'SCENE 2',
        'Mother: Then we will wait one more morning.',
      ].join('\n'),
      year: year - 2,
      type: 'original',
      genre: 'Drama',
      status: 'performed',
      image: images.plays[0],
    },
    {
      title: 'Demo: A Translated Monologue',
      arabicTitle: 'تجريبي: مونولوج مترجم',
      description: `A placeholder for a translated play. ${DEMO_NOTE}`,
      content: 'ACT ONE\nSpeaker: A single voice speaks to the audience.',
      year: year - 4,
      type: 'translated',
      genre: 'Monologue',
      status: 'published',
      image: images.plays[1],
    },
  ];

  // Every kind has demo items: a kind added to the registry fails to compile here until it has some.
  const items = { books, essays, artworks, news, plays } satisfies Record<ContentKind, object[]>;
  // Oldest first, so "newest first" lists show the first item of each array on top.
  // One outbox row per item, as every save has: a publish applies exactly the changes it lists.
  for (const kind of CONTENT_KINDS) {
    for (const item of [...items[kind]].reverse()) {
      const saved = await m.save(m.create(KIND_FEATURES[kind].entity, { ...item, ...audit }));
      await outbox.record(m, kind, (saved as { id: number }).id, 'create');
    }
  }
}

export const seedDemoContent = { prepareImages, insert };
