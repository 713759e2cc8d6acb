// Preview: the site's own templates render an item's pages with a draft in place, through the
// running renderer, without writing anything into a site version (POST /hooks/preview, signed).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Why a preview cannot be made here (command mode has no renderer to ask). */
export class PreviewUnavailable extends Error {}

/** At most this many pages per preview request. */
export const MAX_PREVIEW_PATHS = 12;

/**
 * Renders `paths` with `overrides` (API answers by path, e.g. `/api/books`, the draft in place).
 * Pages come back as HTML strings; an address the site's code has no page for (e.g. `/ar/…` on a
 * site without Arabic addresses) is answered 404 with an empty body. Image variants a page needs
 * that the live site does not have yet (a new upload) are inlined as data: URLs, so the preview
 * shows them although nothing was published.
 *
 * @param {import('./builder.mjs').SiteBuilder} builder
 * @param {{ paths: string[], overrides: Record<string, unknown> }} request
 */
export async function renderPreview(builder, { paths, overrides }) {
  if (!builder.renderers)
    throw new PreviewUnavailable('This builder runs BUILD_COMMAND (command mode): it has no renderer to make previews with.');
  // A publish starts and replaces renderers: wait for it rather than start a second one beside it.
  if (!builder.renderers.running) await builder.whenIdle();
  const renderer = builder.renderers.running?.renderer ?? (await builder.renderers.ensure()).renderer;
  const liveDir = builder.config.liveLink;
  // One page after another: side by side they took twice as long on two cores (measured with
  // 4,000 books: each render carries the whole list), and a preview is a handful of pages.
  const pages = [];
  for (const route of paths) pages.push(await renderOne(renderer, route, overrides, liveDir));
  return { pages };
}

async function renderOne(renderer, route, overrides, liveDir) {
  let page;
  try {
    page = await renderer.render(route, null, { overrides });
  } catch (error) {
    if (/no page of the site has this address/.test(error?.message ?? '')) return { path: route, status: 404, html: '' };
    throw error;
  }
  let html = page.body.toString('utf8');
  for (const extra of page.files) {
    if (existsSync(path.join(liveDir, extra.file))) continue;
    const data = `data:image/webp;base64,${(await readFile(extra.source)).toString('base64')}`;
    html = html.split(`/${extra.file}`).join(data);
  }
  return { path: route, status: page.status, html };
}
