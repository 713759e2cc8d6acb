import type { Campaign, Subscriber } from '@portfolio/contract/newsletter';
import type { Book, Contact, Essay, News, Play } from '@portfolio/contract/types';

const audit = (id: number, isDeleted = false) => ({
  id,
  isDeleted,
  createdAt: '2025-03-01T10:00:00.000Z',
  updatedAt: '2025-03-01T10:00:00.000Z',
  deletedAt: isDeleted ? '2025-03-02T10:00:00.000Z' : null,
  createdByUserId: 1,
  lastUpdatedByUserId: 1,
  deletedByUserId: isDeleted ? 1 : null,
  contentLanguage: null,
  translations: {},
});

export const book = (id: number, title: string, overrides: Partial<Book> = {}): Book => ({
  ...audit(id, overrides.isDeleted),
  publishAt: null,
  title,
  description: 'A novel',
  year: 2023,
  publisher: 'Dar',
  isbn: null,
  pages: null,
  genre: null,
  language: 'Arabic',
  awards: [],
  goodreadsUrl: null,
  purchaseUrl: null,
  youtubeUrl: null,
  googleDriveUrl: null,
  downloadCount: 0,
  coverImage: null,
  documents: [],
  reviews: [],
  readingMaterials: [],
  published: true,
  ...overrides,
});

export const essay = (id: number, title: string, overrides: Partial<Essay> = {}): Essay => ({
  ...audit(id, overrides.isDeleted),
  publishAt: null,
  title,
  excerpt: 'Excerpt',
  content: 'Content',
  publication: null,
  publicationLogoUrl: null,
  publishedDate: '2024-05-01T00:00:00.000Z',
  essayUrl: null,
  imageUrl: null,
  category: 'Culture',
  featured: false,
  published: true,
  ...overrides,
});

export const news = (id: number, title: string, overrides: Partial<News> = {}): News => ({
  ...audit(id, overrides.isDeleted),
  publishAt: null,
  title,
  excerpt: 'Excerpt',
  content: 'Content',
  category: 'award',
  published: true,
  publishedDate: '2025-02-01T09:30:00.000Z',
  imageUrl: null,
  newsUrl: null,
  ...overrides,
});

export const play = (id: number, title: string, overrides: Partial<Play> = {}): Play => ({
  ...audit(id, overrides.isDeleted),
  publishAt: null,
  title,
  arabicTitle: null,
  description: null,
  content: null,
  year: 2020,
  type: 'original',
  genre: null,
  image: null,
  pdfUrl: null,
  youtubeUrl: null,
  status: 'draft',
  ...overrides,
});

export const contact = (id: number, subject: string, overrides: Partial<Contact> = {}): Contact => ({
  id,
  name: 'Layla',
  email: 'layla@example.com',
  subject,
  message: 'Hello,\nI loved the book.',
  read: false,
  isDeleted: false,
  createdAt: '2025-03-01T10:00:00.000Z',
  deletedAt: null,
  deletedByUserId: null,
  ...overrides,
});

export const subscriber = (id: number, email: string, overrides: Partial<Subscriber> = {}): Subscriber => ({
  id,
  email,
  language: 'en',
  topics: ['essays', 'news'],
  state: 'confirmed',
  createdAt: '2026-03-01T10:00:00.000Z',
  confirmedAt: '2026-03-02T10:00:00.000Z',
  unsubscribedAt: null,
  permanentFailures: 0,
  ...overrides,
});

export const campaign = (overrides: Partial<Campaign> = {}): Campaign => ({
  id: 4,
  kind: 'essays',
  itemId: 3,
  title: 'The sea remembers',
  state: 'done',
  createdAt: '2026-04-01T10:00:00.000Z',
  createdByUserId: 1,
  finishedAt: '2026-04-01T10:01:00.000Z',
  total: 3,
  sent: 3,
  failed: 0,
  skipped: 0,
  remaining: 0,
  ...overrides,
});
