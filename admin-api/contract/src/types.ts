import type { MessageKey, MessageParams, MessageRef } from './messages.js';

/**
 * The JSON shapes of the /api contract. Dates are ISO 8601 strings. The API types its answers as
 * these (a renamed column fails its compile), the site and the overlay read them.
 */

/**
 * Every refusal. `message` and `errors` are the specification's English sentences; `messageKey`
 * (with `messageParams`) and `errorKeys` name the same messages in the catalogue of
 * `@portfolio/contract/messages`, so a client shows them in its own language. An answer may lack
 * the keys (a message from the framework, an older API): then the English is shown as sent.
 */
export interface ErrorBody {
  statusCode: number;
  message: string;
  /** Field name → the problem with it, e.g. `{ password: 'Password must be at least 6 characters' }`. */
  errors?: Record<string, string>;
  messageKey?: MessageKey;
  messageParams?: MessageParams;
  /** Field name → the key of its problem, for the same fields as `errors`. */
  errorKeys?: Record<string, MessageRef>;
}

/** A `{ message }` answer that reports success (password changed, reset link sent, message received). */
export interface NoticeBody {
  message: string;
  messageKey?: MessageKey;
}

/** The kinds of content, named as their /api collections (the overlay's Gallery tab edits 'artworks'). */
export const CONTENT_KINDS = ['books', 'essays', 'artworks', 'news', 'plays'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];
export type ContentAction = 'create' | 'update' | 'delete' | 'restore';

interface Audited {
  id: number;
  isDeleted: boolean;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  createdByUserId: number | null;
  lastUpdatedByUserId: number | null;
  deletedByUserId: number | null;
}

export interface Book extends Audited {
  title: string;
  description: string;
  year: number;
  publisher: string;
  isbn: string | null;
  pages: number | null;
  genre: string | null;
  language: string;
  awards: string[];
  goodreadsUrl: string | null;
  purchaseUrl: string | null;
  youtubeUrl: string | null;
  googleDriveUrl: string | null;
  downloadCount: number;
  coverImage: string | null;
  documents: string[];
  /** Each entry is a JSON string `{"title","url"}` or a bare URL. */
  reviews: string[];
  readingMaterials: string[];
  published: boolean;
}

export interface Essay extends Audited {
  title: string;
  excerpt: string;
  content: string;
  publication: string | null;
  publicationLogoUrl: string | null;
  publishedDate: string | null;
  essayUrl: string | null;
  imageUrl: string | null;
  category: string | null;
  featured: boolean;
  published: boolean;
}

export interface Artwork extends Audited {
  title: string;
  medium: string;
  year: number;
  image: string;
  description: string | null;
  featured: boolean;
}

export type NewsCategory = 'exhibition' | 'publication' | 'award' | 'other';
export interface News extends Audited {
  title: string;
  excerpt: string;
  content: string;
  category: NewsCategory;
  published: boolean;
  publishedDate: string;
  imageUrl: string | null;
  newsUrl: string | null;
}

export type PlayType = 'original' | 'translated';
export type PlayStatus = 'draft' | 'published' | 'performed';
export interface Play extends Audited {
  title: string;
  arabicTitle: string | null;
  description: string | null;
  content: string | null;
  year: number | null;
  type: PlayType;
  genre: string | null;
  image: string | null;
  pdfUrl: string | null;
  youtubeUrl: string | null;
  status: PlayStatus;
}

export interface Contact {
  id: number;
  name: string;
  email: string;
  subject: string;
  message: string;
  read: boolean;
  isDeleted: boolean;
  createdAt: string;
  deletedAt: string | null;
  deletedByUserId: number | null;
}

export interface AdminUser {
  id: number;
  username: string;
  email: string;
  name: string;
  isActive: boolean;
  isSuperadmin: boolean;
  createdAt: string;
  updatedAt: string;
}

type ServerManaged = keyof Audited;
/** POST bodies: the entity without server-managed fields; optional fields may be left out. */
export type BookInput = Pick<Book, 'title' | 'description' | 'year' | 'publisher'> & Partial<Omit<Book, ServerManaged>>;
export type EssayInput = Pick<Essay, 'title' | 'excerpt' | 'content'> & Partial<Omit<Essay, ServerManaged>>;
export type ArtworkInput = Pick<Artwork, 'title' | 'medium' | 'year' | 'image'> & Partial<Omit<Artwork, ServerManaged>>;
export type NewsInput = Pick<News, 'title' | 'excerpt' | 'content' | 'category'> & Partial<Omit<News, ServerManaged | 'publishedDate'>> & { publishedDate?: string | null };
export type PlayInput = Pick<Play, 'title'> & Partial<Omit<Play, ServerManaged>>;
export type ContactInput = Pick<Contact, 'name' | 'email' | 'subject' | 'message'>;
/** PATCH bodies: some fields, or `{ isDeleted }` alone (move to trash / restore). */
export type Patch<T> = Partial<T> | { isDeleted: boolean };

export interface LoginResponse {
  user: AdminUser;
  sessionId: string;
}
export const UPLOAD_FOLDERS = ['books', 'essays', 'artworks', 'news', 'plays', 'general'] as const;
export type UploadFolder = (typeof UPLOAD_FOLDERS)[number];
export interface UploadResponse {
  url: string;
  folder: UploadFolder;
}

/** Publishing (site rebuild) as the overlay sees it: GET /api/admin/publishing; POST to publish now. */
export type PublishState = 'idle' | 'queued' | 'building' | 'live' | 'failed';
export interface PublishingStatus {
  state: PublishState;
  /** Content changes saved but not yet in a live build. */
  pendingChanges: number;
  /** When the newest successful build went live, and how long it took. */
  lastLiveAt: string | null;
  lastDurationMs: number | null;
  /** The last lines of the build log when state is 'failed'. */
  lastError: string | null;
  /** False when no REBUILD_WEBHOOK_URL is configured: changes are saved but not published. */
  webhookConfigured: boolean;
  /** After a failed rebuild request or build: when it is tried again by itself (ISO), else null. */
  nextAttemptAt: string | null;
  /** The live build's folder name under `$VAR_DIR/site/builds/`, when the builder reports it. */
  liveBuildId: string | null;
  /** Whether the builder answered its status request; null when no REBUILD_STATUS_URL is set. */
  builderReachable: boolean | null;
}
