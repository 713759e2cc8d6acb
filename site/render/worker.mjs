// The renderer's child process (started by startRenderer in renderer.mjs): loads the site's server
// bundle from SITE_RENDERER_DIR and renders the routes its parent asks for over IPC.
//
// The bundle (render/server-entry.mjs) renders an address in-process. The job's report
// (Astro.locals.render, filled in by src/middleware.ts: output file, dependencies, extra files, the
// page's bytes, error) travels beside the request, not in headers or the response, so a page that
// shows a thousand images reports them all and a page of many megabytes is not copied again.
import { closeSync, openSync, readFileSync, writevSync } from 'node:fs';
import { registerHooks } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const rendererDir = process.env.SITE_RENDERER_DIR;
if (!rendererDir || !process.send) {
  console.error('render/worker.mjs runs as a child of startRenderer() (render/renderer.mjs), with SITE_RENDERER_DIR set.');
  process.exit(2);
}

// The bundle imports the site's dependencies by name (react, astro's runtime, sharp …). A renderer
// folder can be anywhere (the builder keeps one per code version under its own folder), so those
// names are resolved from the site workspace, exactly as when the bundle was built.
const bundleUrl = pathToFileURL(path.resolve(rendererDir) + path.sep).href;
const siteUrl = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json')).href;
const isPackageName = (specifier) => !/^(\.{1,2}\/|\/|[a-z][a-z0-9+.-]*:)/i.test(specifier) && specifier !== '.' && specifier !== '..';
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (context.parentURL?.startsWith(bundleUrl) && isPackageName(specifier))
      return nextResolve(specifier, { ...context, parentURL: siteUrl });
    return nextResolve(specifier, context);
  },
});

const { render } = await import(pathToFileURL(path.join(rendererDir, 'server', 'entry.mjs')).href);

/**
 * Where a page's bytes go when the parent asks for a file instead of the bytes (`output`): written to
 * `output.file`, unless `output.sameAs` (the page's file in the live version) already holds exactly
 * these bytes. A page of 18 MB (/books with 20,000 books) then never crosses the IPC channel, is
 * never joined into one buffer, and an unchanged one is not written at all.
 *
 * @param {Uint8Array[]} pieces
 * @param {{ file: string, sameAs?: string | null }} output
 */
function place(pieces, output) {
  if (output.sameAs && holds(output.sameAs, pieces)) return false;
  // Synchronous: a page file is written to the page cache in microseconds, and a FileHandle per
  // page (its promise hops and finalizer) cost more than the write itself (a tenth of the
  // renderer's time at 16,000 pages).
  const fd = openSync(output.file, 'w');
  try {
    // IOV_MAX pieces a call.
    for (let i = 0; i < pieces.length; i += 1024) writevAll(fd, pieces.slice(i, i + 1024));
  } finally {
    closeSync(fd);
  }
  return true;
}

/** writevSync until every byte of `pieces` is written (a call may write fewer). */
function writevAll(fd, pieces) {
  let left = pieces.reduce((n, p) => n + p.byteLength, 0);
  let written = writevSync(fd, pieces);
  while (written < left) {
    left -= written;
    let skip = written;
    while (skip >= pieces[0].byteLength) skip -= pieces.shift().byteLength;
    if (skip) pieces[0] = pieces[0].subarray(skip);
    written = writevSync(fd, pieces);
  }
}

/** Whether `file` holds exactly the bytes of `pieces`. */
function holds(file, pieces) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch {
    return false;
  }
  if (bytes.length !== pieces.reduce((n, p) => n + p.byteLength, 0)) return false;
  let at = 0;
  for (const p of pieces) {
    if (bytes.compare(p, 0, p.byteLength, at, at + p.byteLength) !== 0) return false;
    at += p.byteLength;
  }
  return true;
}

/** The Since of the last few publishes, as their first job brought it (renderer.mjs sends it once per publish). */
const knownSince = new Map();

async function run({ id, op, path: route, publishId, overrides, since: sent, sinceKnown, output }) {
  let since = sent;
  if (sent && publishId) {
    knownSince.set(publishId, sent);
    while (knownSince.size > 4) knownSince.delete(knownSince.keys().next().value);
  } else if (sinceKnown) {
    // Not known after all (never the case): the render reads everything afresh, which is always right.
    since = knownSince.get(publishId);
  }
  const report = { op, ...(overrides ? { overrides } : {}), ...(since ? { since } : {}) };
  try {
    const response = await render(route, { 'x-publish-id': publishId ?? '' }, { render: report });
    const res = { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
    if (report.error) throw new Error(report.error);
    if (res.status >= 500) throw new Error(`answered ${res.status}`);
    // Astro passes the report only to a page that matches the address.
    if (op !== 'routes' && !report.file) throw new Error('no page of the site has this address');
    // A page's bytes come in the report (src/middleware.ts); the route listing's in the response.
    const pieces = report.body ?? [res.body];
    const done = { id, ok: true, status: res.status, file: report.file, deps: report.deps ?? [], files: report.files ?? [] };
    if (output && op === 'render') return { ...done, body: null, written: place(pieces, output) };
    return { ...done, body: new Uint8Array(Buffer.concat(pieces)) };
  } catch (error) {
    return { id, ok: false, error: error?.message ?? String(error) };
  }
}

process.on('message', (/** @type {any} */ message) => {
  run(message).then((reply) => process.send(reply));
});
// The parent went away (stopped, crashed): nothing is left to render for.
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready' });
