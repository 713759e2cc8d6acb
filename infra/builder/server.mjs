// The builder's HTTP face:
//   POST /hooks/rebuild  signed rebuild request (admin-api's sender, or anything holding the secret) → 202
//   GET  /status         signed; the builder's state, which admin-api turns into the overlay's status
//   POST /hooks/preview  signed; renders pages with a draft in place (admin-api's preview), writes nothing
//   GET  /healthz        unsigned liveness for container health checks; says nothing else
import http from 'node:http';

import { PUBLISH_KINDS } from '@portfolio/contract/types';
import { isFresh, SIGNATURE_HEADER, statusPayload, TIMESTAMP_HEADER, verify } from '@portfolio/contract/webhook';

import { MAX_PREVIEW_PATHS, PreviewUnavailable, renderPreview } from './preview.mjs';

/**
 * What a change may name (content kinds, 'settings', 'image-variants'): also the names of what a render reads
 * (`books`, `books/3`, `settings`, `image-variants/7`: a page that showed an upload while its variants were being made).
 */
const CHANGE_KINDS = new Set(PUBLISH_KINDS);

/** A rebuild request lists at most 2,000 changes (admin-api's MAX_LISTED_CHANGES): about 110 KB. */
const MAX_BODY_BYTES = 512 * 1024;
/**
 * A preview carries the list it overrides: at 4,000 books that request was 3.2 MB (infra/bench/preview.mjs);
 * 16 MB leaves five times that for longer texts and more books.
 */
export const MAX_PREVIEW_BYTES = 16 * 1024 * 1024;
/** What the sender puts in SIGNATURE_HEADER (contract's sign()): anything else is refused before the body is read. */
const SIGNATURE_FORM = /^sha256=[0-9a-f]{64}$/;

export function createBuilderServer(builder, { secret, log = () => {} }) {
  return http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://builder');
    try {
      if (url.pathname === '/hooks/rebuild') {
        if (req.method !== 'POST') return send(res, 405, { error: 'Use POST' }, { allow: 'POST' });
        const refused = refuseUnread(req, MAX_BODY_BYTES);
        if (refused) return refusedUnread(res, refused, log, 'rebuild', req);
        const raw = await readBody(req);
        if (raw === null) return send(res, 413, { error: `Body larger than ${MAX_BODY_BYTES} bytes` });
        if (!verify(secret, raw, req.headers[SIGNATURE_HEADER])) {
          log(`refused a rebuild request with a bad or missing signature from ${req.socket.remoteAddress}`);
          return send(res, 401, { error: 'Bad signature' });
        }
        /** @type {Partial<import('@portfolio/contract/webhook').RebuildRequest>} A signed body, still checked field by field. */
        let body;
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          return send(res, 400, { error: 'Body is not JSON' });
        }
        // The signed body carries its time: an old request replayed by someone who captured it is refused.
        if (!isFresh(Date.parse(body?.sentAt))) return send(res, 401, { error: 'sentAt missing or too far from the current time' });
        const result = builder.request({
          reason: String(body.reason ?? 'content-changed').slice(0, 40),
          idempotencyKey: typeof body.idempotencyKey === 'string' ? body.idempotencyKey.slice(0, 200) : null,
          upToEventId: Number.isInteger(body.upToEventId) ? body.upToEventId : null,
          changeCount: Number.isInteger(body.changeCount) ? body.changeCount : 0,
          changes: readChanges(body.changes),
          changesTruncated: body.changesTruncated === true,
        });
        if (!result.accepted) return send(res, 503, { error: 'The builder is stopping' }, { 'retry-after': '5' });
        return send(res, 202, { ...result, status: statusUrl(req) });
      }
      if (url.pathname === '/hooks/preview') {
        if (req.method !== 'POST') return send(res, 405, { error: 'Use POST' }, { allow: 'POST' });
        const refused = refuseUnread(req, MAX_PREVIEW_BYTES);
        if (refused) return refusedUnread(res, refused, log, 'preview', req);
        const raw = await readBody(req, MAX_PREVIEW_BYTES);
        if (raw === null) return send(res, 413, { error: `Body larger than ${MAX_PREVIEW_BYTES} bytes` });
        if (!verify(secret, raw, req.headers[SIGNATURE_HEADER])) {
          log(`refused a preview request with a bad or missing signature from ${req.socket.remoteAddress}`);
          return send(res, 401, { error: 'Bad signature' });
        }
        /** @type {Partial<import('@portfolio/contract/webhook').PreviewRenderRequest>} A signed body, still checked field by field. */
        let body;
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          return send(res, 400, { error: 'Body is not JSON' });
        }
        if (!isFresh(Date.parse(body?.sentAt))) return send(res, 401, { error: 'sentAt missing or too far from the current time' });
        const paths = Array.isArray(body.paths) ? body.paths.filter((p) => typeof p === 'string' && /^\/[\w\-/.]*$/.test(p)) : [];
        if (!paths.length || paths.length > MAX_PREVIEW_PATHS || paths.length !== body.paths.length)
          return send(res, 400, { error: `paths: 1 to ${MAX_PREVIEW_PATHS} site addresses` });
        const overrides = body.overrides && typeof body.overrides === 'object' ? body.overrides : {};
        try {
          return send(res, 200, await renderPreview(builder, { paths, overrides }));
        } catch (error) {
          if (error instanceof PreviewUnavailable) return send(res, 409, { error: error.message });
          log(`preview failed: ${error?.message ?? error}`);
          return send(res, 502, { error: `The preview could not be rendered: ${String(error?.message ?? error).split('\n')[0]}` });
        }
      }
      if (url.pathname === '/status') {
        if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { error: 'Use GET' }, { allow: 'GET' });
        const ts = String(req.headers[TIMESTAMP_HEADER] ?? '');
        if (!isFresh(Number(ts)) || !verify(secret, statusPayload(ts), req.headers[SIGNATURE_HEADER])) {
          return send(res, 401, { error: 'Bad signature' });
        }
        return send(res, 200, builder.status());
      }
      if (url.pathname === '/healthz') return send(res, 200, { ok: true });
      return send(res, 404, { error: 'Not found' });
    } catch (error) {
      log(`request failed: ${error?.stack ?? error}`);
      if (!res.headersSent) send(res, 500, { error: 'Internal error' });
    }
  });
}

/** The request's change list, or null (unknown: a full publish) when it is missing or names something unknown. */
function readChanges(changes) {
  if (!Array.isArray(changes)) return null;
  const out = [];
  for (const c of changes) {
    if (!CHANGE_KINDS.has(c?.kind) || !Number.isSafeInteger(c?.entityId) || c.entityId < 1) return null;
    out.push({ kind: c.kind, entityId: c.entityId, action: typeof c.action === 'string' ? c.action.slice(0, 20) : 'update' });
  }
  return out;
}

function statusUrl(req) {
  return `http://${req.headers.host ?? 'builder'}/status`;
}

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * Why a signed request is refused from its headers alone (no signature of the sender's form, or a
 * declared length over `limit`), or null. Nothing of the body is read for it: without this, four
 * unsigned 62 MB posts made the builder hold 240 MB before each was refused.
 */
function refuseUnread(req, limit) {
  if (!SIGNATURE_FORM.test(String(req.headers[SIGNATURE_HEADER] ?? ''))) return { status: 401, error: 'Bad signature' };
  const length = req.headers['content-length'];
  if (length !== undefined && !(Number(length) <= limit)) return { status: 413, error: `Body larger than ${limit} bytes` };
  return null;
}

/** Answers and closes the connection (Node discards what arrives of the body until then). */
function refusedUnread(res, { status, error }, log, what, req) {
  if (status === 401) log(`refused a ${what} request with a bad or missing signature from ${req.socket.remoteAddress}`);
  send(res, status, { error }, { connection: 'close' });
}

/** The raw bytes (the signature covers exactly them), or null when over the limit. */
async function readBody(req, limit = MAX_BODY_BYTES) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
