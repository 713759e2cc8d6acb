import { createHmac, timingSafeEqual } from 'node:crypto';

import type { ContentAction, PreviewPage, PublishKind } from './types.js';

/**
 * The rebuild webhook between admin-api (sender) and the builder (receiver), or any static host's
 * build hook. The body is signed: HMAC-SHA256 of the exact bytes sent, in the header
 * `X-Signature-256: sha256=<hex>` (GitHub's webhook convention, so common receivers can check it).
 * GET /status has no body: it signs its timestamp, so a captured request cannot be replayed later.
 */
export const SIGNATURE_HEADER = 'x-signature-256';
export const TIMESTAMP_HEADER = 'x-timestamp';
/** Signed requests older (or newer) than this are refused. */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** Why a rebuild is requested: saved changes, or an admin's 'Publish now'. */
export type RebuildReason = 'content-changed' | 'publish-now';

/** One content change in a rebuild request. */
export interface RebuildChange {
  kind: PublishKind;
  entityId: number;
  action: ContentAction;
}

/** The JSON body of `POST <REBUILD_WEBHOOK_URL>`, signed in SIGNATURE_HEADER. */
export interface RebuildRequest {
  /** Identical for every retry of the same request, so a receiver can ignore repeats. */
  idempotencyKey: string;
  reason: RebuildReason;
  /** ISO 8601; the receiver refuses requests further than MAX_CLOCK_SKEW_MS from its clock. */
  sentAt: string;
  /** The newest outbox row the request covers: a build that starts after receiving it includes that change. */
  upToEventId: number;
  /** Every change covered; `changes` lists at most 2,000 of them. */
  changeCount: number;
  changes: RebuildChange[];
  changesTruncated: boolean;
}

/**
 * The JSON body of `POST <builder>/hooks/preview` (admin-api's preview), signed like a rebuild
 * request: render these addresses with the given API answers in place of the published ones, and
 * write nothing.
 */
export interface PreviewRenderRequest {
  /** ISO 8601; refused further than MAX_CLOCK_SKEW_MS from the builder's clock. */
  sentAt: string;
  /** Site addresses (`/books/3`, `/ar/books`), at most the builder's MAX_PREVIEW_PATHS. */
  paths: string[];
  /** API paths (`/api/books`) and the answer each should give while these pages render. */
  overrides: Record<string, unknown>;
}

/** The builder's answer to a preview request (200); errors answer `{ error }`. */
export interface PreviewRenderAnswer {
  pages: PreviewPage[];
}

/** One finished build, as the builder reports it in GET /status. */
export interface BuilderBuild {
  id: string;
  ok: boolean;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Highest outbox row id the build is known to include (null for builds not caused by a webhook). */
  upToEventId: number | null;
  logTail?: string[];
  /** Why it ran: a RebuildReason, or the builder's own ('retry', 'start'); older builders do not say. */
  reasons?: string[];
  /** 'full': every route rendered (or a build command); 'targeted': only the routes that read what changed. */
  mode?: PublishMode;
  /** How many addresses went live against the previous version, and how many of them are pages (not assets); null when not known. */
  addedCount?: number | null;
  changedCount?: number | null;
  removedCount?: number | null;
  pagesUpdated?: number | null;
  /** The first 100 addresses of each list, e.g. `/books/3`, `/_astro/cover-600w.1a2b3c4d5e.webp`. */
  added?: string[] | null;
  changed?: string[] | null;
  removed?: string[] | null;
}

export type PublishMode = 'full' | 'targeted';

/** Addresses of a site version that are pages (HTML, feeds, the sitemap), not hashed assets under /_astro/. */
export function countPages(paths: readonly string[]): number {
  return paths.filter((p) => !p.startsWith('/_astro/')).length;
}

/** The builder's answer to a signed GET /status. */
export interface BuilderStatus {
  building: { id: string; startedAt: string; upToEventId: number | null } | null;
  /** A follow-up build waits for the running one. */
  queued: boolean;
  /** No site was live when the builder started: its first publish made the site (npm start says so). */
  startedWithoutSite?: boolean;
  /** When the builder tries a failed build again by itself (ISO), or null. */
  retryAt?: string | null;
  live: BuilderBuild | null;
  lastBuild: BuilderBuild | null;
  /** The deploy of live versions to a bucket (DEPLOY_S3_URL); null or missing when it is off. */
  deploy?: BuilderDeploy | null;
}

/** The builder's deploy to an S3-compatible bucket, as GET /status reports it. */
export interface BuilderDeploy {
  state: 'idle' | 'deploying' | 'deployed' | 'retrying' | 'failed';
  /** `s3://bucket/prefix/` */
  target: string;
  deployingBuildId: string | null;
  retryAt: string | null;
  lastDeployed: { buildId: string; at: string; uploaded: number; deleted: number; unchanged: number; purged: number; ms: number } | null;
  lastError: { buildId: string; at: string; message: string } | null;
}

export function sign(secret: string, payload: string): string {
  return `sha256=${createHmac('sha256', secret).update(payload).digest('hex')}`;
}

/** Constant-time comparison, so the answer's timing tells nothing about how much of a guess was right. */
export function verify(secret: string, payload: string, signature: unknown): boolean {
  if (typeof signature !== 'string') return false;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** What GET /status signs: its timestamp. */
export function statusPayload(timestamp: string): string {
  return `GET /status ${timestamp}`;
}

/** Headers of a signed GET /status. */
export function statusHeaders(secret: string, now = Date.now()): Record<string, string> {
  const timestamp = String(now);
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: sign(secret, statusPayload(timestamp)) };
}

/** Whether a request's time (epoch ms) is close enough to now to be accepted. */
export function isFresh(epochMs: number, now = Date.now()): boolean {
  return Number.isFinite(epochMs) && Math.abs(now - epochMs) <= MAX_CLOCK_SKEW_MS;
}
