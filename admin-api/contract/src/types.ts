import type { TextFormat } from './formatted-text.js';
import { CONTENT_KINDS, type ContentKind } from './kinds.js';
import type { MessageKey, MessageParams, MessageRef } from './messages.js';
import type { ArtworkText, BookText, EssayText, Lang, NewsText, PlayText, Translations } from './translations.js';

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

/** The kinds of content (declared in kinds.ts). */
export { CONTENT_KINDS, type ContentKind };
export type ContentAction = 'create' | 'update' | 'delete' | 'restore';
/**
 * What a publish can be asked to bring live (an outbox row, a change in a rebuild request): the
 * content kinds, the site settings (one row, entity id 1) and an upload's finished image variants
 * (`image-variants`, entity id: the job's, see image-variants.ts; not content: no revisions,
 * backups or labels). Also the names of what a page reads (`books`, `books/3`, `settings`,
 * `image-variants/7`), so a change re-renders exactly the pages that read it.
 */
export type PublishKind = ContentKind | 'settings' | 'image-variants';
export const PUBLISH_KINDS: readonly PublishKind[] = /* @__PURE__ */ ([] as PublishKind[]).concat(
  CONTENT_KINDS,
  'settings',
  'image-variants',
);

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
  /** The language of the fields above: 'en' | 'ar', or null (detected from the text). */
  contentLanguage: Lang | null;
  /** The fields a visitor reads in the other language: `{ ar?: {...}, en?: {...} }` (see @portfolio/contract/translations). */
  translations: Translations<BookText>;
  /** When anonymous visitors start to see it (ISO 8601, UTC); null: as soon as it is published. */
  publishAt: string | null;
  /** How its long texts (content, description) are written: 'plain' (the default: paragraphs as typed) or 'markdown' (see @portfolio/contract/formatted-text). */
  textFormat: TextFormat;
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
  /** The language of the fields above: 'en' | 'ar', or null (detected from the text). */
  contentLanguage: Lang | null;
  /** The fields a visitor reads in the other language: `{ ar?: {...}, en?: {...} }` (see @portfolio/contract/translations). */
  translations: Translations<EssayText>;
  /** When anonymous visitors start to see it (ISO 8601, UTC); null: as soon as it is published. */
  publishAt: string | null;
  /** How its long texts (content, description) are written: 'plain' (the default: paragraphs as typed) or 'markdown' (see @portfolio/contract/formatted-text). */
  textFormat: TextFormat;
}

export interface Artwork extends Audited {
  title: string;
  medium: string;
  year: number;
  image: string;
  description: string | null;
  featured: boolean;
  /** The language of the fields above: 'en' | 'ar', or null (detected from the text). */
  contentLanguage: Lang | null;
  /** The fields a visitor reads in the other language: `{ ar?: {...}, en?: {...} }` (see @portfolio/contract/translations). */
  translations: Translations<ArtworkText>;
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
  /** The language of the fields above: 'en' | 'ar', or null (detected from the text). */
  contentLanguage: Lang | null;
  /** The fields a visitor reads in the other language: `{ ar?: {...}, en?: {...} }` (see @portfolio/contract/translations). */
  translations: Translations<NewsText>;
  /** When anonymous visitors start to see it (ISO 8601, UTC); null: as soon as it is published. */
  publishAt: string | null;
  /** How its long texts (content, description) are written: 'plain' (the default: paragraphs as typed) or 'markdown' (see @portfolio/contract/formatted-text). */
  textFormat: TextFormat;
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
  /** The language of the fields above: 'en' | 'ar', or null (detected from the text). */
  contentLanguage: Lang | null;
  /** The fields a visitor reads in the other language: `{ ar?: {...}, en?: {...} }` (see @portfolio/contract/translations). */
  translations: Translations<PlayText>;
  /** When anonymous visitors start to see it (ISO 8601, UTC); null: as soon as it is published. */
  publishAt: string | null;
  /** How its long texts (content, description) are written: 'plain' (the default: paragraphs as typed) or 'markdown' (see @portfolio/contract/formatted-text). */
  textFormat: TextFormat;
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
export type NewsInput = Pick<News, 'title' | 'excerpt' | 'content' | 'category'> &
  Partial<Omit<News, ServerManaged | 'publishedDate'>> & { publishedDate?: string | null };
export type PlayInput = Pick<Play, 'title'> & Partial<Omit<Play, ServerManaged>>;
export type ContactInput = Pick<Contact, 'name' | 'email' | 'subject' | 'message'>;
/** PATCH bodies: some fields, or `{ isDeleted }` alone (move to trash / restore). */
export type Patch<T> = Partial<T> | { isDeleted: boolean };

export interface LoginResponse {
  user: AdminUser;
  sessionId: string;
}
/** A folder per kind, and one for the rest (the site settings' pictures). */
export type UploadFolder = ContentKind | 'general';
export const UPLOAD_FOLDERS: readonly UploadFolder[] = /* @__PURE__ */ ([] as UploadFolder[]).concat(CONTENT_KINDS, 'general');
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
  /** What the live version's publish did, when the builder reports it (null otherwise). */
  lastPublish: LastPublish | null;
  /** The copy of the site on a static host / CDN bucket, when the builder deploys one (null otherwise). */
  deploy: DeployStatus | null;
}

/** 'retrying' / 'failed': the site is live on this machine but the bucket still serves the version before. */
export type DeployState = 'idle' | 'deploying' | 'deployed' | 'retrying' | 'failed';
export interface DeployStatus {
  state: DeployState;
  /** Where the site is deployed: `s3://bucket/prefix/`. */
  target: string;
  /** The newest version the bucket holds in full, and when it got there. */
  lastDeployedBuildId: string | null;
  lastDeployedAt: string | null;
  /** Objects uploaded by that deploy (only what changed). */
  lastUploaded: number | null;
  /** Why the newest deploy failed; null after a deploy that worked. */
  lastError: string | null;
  /** When a failed deploy is tried again by itself (ISO), else null. */
  retryAt: string | null;
}

export interface LastPublish {
  /** 'full': the whole site rendered; 'targeted': only the pages that read what changed. */
  mode: 'full' | 'targeted';
  /** Pages (not assets) added, changed or removed against the version before; null when not known. */
  pagesUpdated: number | null;
  /** From the newest save it includes to live, in ms; null for a publish no save caused ('Publish now'). */
  liveAfterSaveMs: number | null;
}

/**
 * Revisions: every save of a content item keeps one (GET /api/admin/revisions/{kind}/{id}).
 * 'baseline' is the state an item had before its first save with revisions on (items saved before
 * revisions existed, demo content); 'publish' / 'unpublish' are saves that changed only
 * `published`; 'remove' is a permanent removal (plays), whose snapshot is the item as it was;
 * 'revert' is a restore of an earlier revision (`restoredFrom`), which recreates a removed play.
 */
export type RevisionAction = 'baseline' | 'create' | 'update' | 'publish' | 'unpublish' | 'delete' | 'restore' | 'remove' | 'revert';
/** Each kind's item as the API answers it. */
export interface ContentItems {
  books: Book;
  essays: Essay;
  artworks: Artwork;
  news: News;
  plays: Play;
}
export type ContentItem = ContentItems[ContentKind];

export interface RevisionSummary {
  kind: ContentKind;
  entityId: number;
  /** 1, 2, 3 … per item; the previous version of revision n is revision n - 1 (unless pruned). */
  revision: number;
  action: RevisionAction;
  /** Who saved it: the admin's id and username at the time (null for a baseline of unknown origin). */
  userId: number | null;
  username: string | null;
  /** When (UTC, ISO 8601). */
  createdAt: string;
  /** The item's fields this save changed (audit columns and counters left out). */
  changedFields: string[];
  /** For 'revert': the revision that was restored. */
  restoredFrom: number | null;
}

export interface Revision extends RevisionSummary {
  /** The item's fields after the save, as the item's own GET answered them then. */
  snapshot: ContentItem;
}

export interface RevisionList {
  kind: ContentKind;
  entityId: number;
  /** Newest first, at most `limit`, from `offset`. */
  revisions: RevisionSummary[];
  total: number;
  /** False when the item no longer exists (a removed play): restore a revision to bring it back. */
  exists: boolean;
}

/** An item removed for good whose history is kept: GET /api/admin/revisions/{kind}/removed. */
export interface RemovedItem {
  kind: ContentKind;
  entityId: number;
  title: string;
  removedAt: string;
  removedByUserId: number | null;
  removedByUsername: string | null;
  /** The 'remove' revision; the one before it holds the last saved version. */
  revision: number;
}

/** POST /api/admin/revisions/{kind}/{id}/{revision}/restore: the item as saved now, and the new revision. */
export interface RevisionRestoreResponse {
  item: ContentItem;
  revision: RevisionSummary;
}

/** Two-factor sign-in (TOTP, RFC 6238) of the signed-in admin: GET /api/admin/two-factor. */
export interface TwoFactorStatus {
  enabled: boolean;
  enabledAt: string | null;
  /** A setup was started and waits for its first code. */
  pendingSetup: boolean;
  /** Unused recovery codes (0 when two-factor sign-in is off). */
  recoveryCodesLeft: number;
}
/** POST /api/admin/two-factor/setup: the only answer that ever carries the secret. */
export interface TwoFactorSetup {
  /** Base32, for typing into an authenticator app by hand. */
  secret: string;
  otpauthUrl: string;
  /** The otpauth:// address as a QR code, an SVG document. */
  qrSvg: string;
}
/** Ten one-time recovery codes, shown once (the API keeps only their hashes). */
export interface RecoveryCodesResponse {
  recoveryCodes: string[];
}
/**
 * The 401 of POST /api/admin/login when the password was right but the admin has two-factor sign-in:
 * send `challenge` with a code to POST /api/admin/login/totp. A client that does not know it sees a
 * failed login with a message that says why.
 */
export interface TwoFactorRequiredBody extends ErrorBody {
  messageKey: 'error.twoFactorRequired';
  challenge: string;
  challengeExpiresAt: string;
}
export interface TotpLoginInput {
  challenge: string;
  /** Six digits from the app, or a recovery code. */
  code: string;
}
/** An item of GET /api/admin/users: the user and whether they sign in with two factors. */
export interface AdminUserListItem extends AdminUser {
  twoFactorEnabled: boolean;
}

/** Backups as the overlay sees them: GET /api/admin/backups. */
export type BackupTrigger = 'scheduled' | 'manual';
export interface BackupRun {
  /** ISO times; finishedAt is null while it runs. */
  startedAt: string;
  finishedAt: string | null;
  /** 'running' until it ends. */
  result: 'running' | 'succeeded' | 'failed';
  trigger: BackupTrigger;
  /** The archive's file name in BACKUP_DIR (or where --out put it), and its size in bytes. */
  file: string | null;
  sizeBytes: number | null;
  /** Why it failed, for the operator (English). */
  error: string | null;
}
export interface BackupStatus {
  /** BACKUP_EVERY (e.g. '24h'), or null when scheduled backups are off. */
  every: string | null;
  /** BACKUP_KEEP: how many archives are kept. */
  keep: number;
  /** When the next scheduled backup is due (ISO), or null. */
  nextRunAt: string | null;
  /** The newest backup, whatever its result. */
  lastRun: BackupRun | null;
  /** The newest backup that succeeded (the same as lastRun unless that one failed or runs). */
  lastSuccess: { finishedAt: string; file: string | null; sizeBytes: number | null } | null;
}

/** A link of the author's elsewhere (contact page, structured data): `{ label: 'Instagram', url }`. */
export interface SocialLink {
  label: string;
  url: string;
}

/**
 * The author's own details, shown on every page (header, footer, home, contact): one row, edited in
 * the overlay's Settings tab. `…En`/`…Ar` are the English and Arabic versions of one text; a null
 * optional text is not shown. GET /api/settings (public) answers this.
 */
export interface PublicSiteSettings {
  authorNameEn: string;
  authorNameAr: string;
  subtitleEn: string | null;
  subtitleAr: string | null;
  quoteEn: string | null;
  quoteAr: string | null;
  /** The 'A Voice from Gaza' biography on the home page; blank lines separate paragraphs. */
  biographyEn: string;
  biographyAr: string;
  /** The bio box at the end of essays and news (500 characters at most); null: the biography's first sentences. */
  shortBioEn: string | null;
  shortBioAr: string | null;
  /** An uploaded image path (/uploads/general/…), a file name or an http(s) URL; null: none. */
  portraitImage: string | null;
  contactEmail: string;
  locationEn: string | null;
  locationAr: string | null;
  socialLinks: SocialLink[];
  /** The footer's 'Powered by' credit; no name: no credit line. */
  footerCreditName: string | null;
  footerCreditUrl: string | null;
  /** The footer's '© {year} {name}' year (the specification's 2025 unless changed). */
  copyrightYear: number;
  /** The public address of the site: canonical links, sitemap, feeds, share cards. */
  siteUrl: string;
  updatedAt: string;
}

/** The newsletter's sender and footer: admin-only settings, never in the public GET /api/settings. */
export interface NewsletterSettings {
  /** The From name of newsletter mails; null: the author's name (MAIL_FROM's when it is set and no sender address is). */
  newsletterSenderName: string | null;
  /** The From address of newsletter mails; null: the server's MAIL_FROM; without it, no-reply@ the host of PUBLIC_URL. */
  newsletterSenderAddress: string | null;
  /** A line at the end of every newsletter mail, per language. */
  newsletterFooterEn: string | null;
  newsletterFooterAr: string | null;
}

/** GET/PATCH /api/admin/settings: the public settings, the newsletter's sender and footer, and who saved them last. */
export interface SiteSettings extends PublicSiteSettings, NewsletterSettings {
  lastUpdatedByUserId: number | null;
}

/** PATCH /api/admin/settings: any of the editable fields (the overlay sends all of them). */
export type SiteSettingsInput = Partial<Omit<PublicSiteSettings, 'updatedAt'>>;
/** PATCH /api/admin/settings also takes the newsletter's fields (apart from SiteSettingsInput, which the overlay's form lists in full). */
export type NewsletterSettingsInput = Partial<NewsletterSettings>;

/** GET /api/admin/scheduled: an item whose publication time is still ahead (soonest first). */
export interface ScheduledItem {
  kind: ContentKind;
  id: number;
  title: string;
  /** ISO 8601, UTC. */
  publishAt: string;
}

/** POST /api/admin/preview: an item as the overlay's form holds it, saved or not. */
export interface PreviewRequest {
  kind: ContentKind;
  /** The saved item it edits; absent for a new item. */
  id?: number | null;
  /** The form's fields, as the create call takes them (every field checked by the same rules). */
  item: Record<string, unknown>;
}

/** One page of a preview, rendered by the site's own templates with the draft in place. */
export interface PreviewPage {
  /** The public address the page will have (`/books/3`, `/books`, `/`). */
  path: string;
  /** 200, or 404 when the draft would not appear there (e.g. a list of published items only). */
  status: number;
  html: string;
}

export interface PreviewResponse {
  kind: ContentKind;
  /** The item's id on the pages (a new item gets the next free id there). */
  id: number;
  pages: PreviewPage[];
}
