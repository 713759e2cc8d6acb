import { defineMiddleware } from 'astro:middleware';

import { cacheFolder } from './lib/image-variants';
import { hrefMaker, LANG_SEGMENTS, pageLang } from './lib/lang';
import { newRecord, renderContext, type RenderReport, withLater } from './lib/render-context';
import { listRoutesSince, outputFile } from './lib/routes';

/**
 * Every render runs inside a record of what it reads (lib/render-context.ts). The body is read to
 * the end inside that context, so reads made while the page streams are recorded too. The
 * renderer (site/render/worker.mjs) passes `locals.render` and the publish id (header
 * `x-publish-id`), and reads back the route's file, dependencies and extra files.
 */
export const onRequest = defineMiddleware(async (context, next) => {
  if (import.meta.env.DEV && /^\/_astro\/[^/]+\.webp$/.test(context.url.pathname)) return devVariant(context.url.pathname);
  const report: RenderReport = context.locals.render ?? {};
  // The page files under pages/[...lang]/ match any first segments (`/x/books`): only a language's are pages.
  if ('lang' in context.params && !LANG_SEGMENTS.includes(context.params.lang ?? '')) {
    report.noPage = true;
    return new Response(null, { status: 404 });
  }
  // A preview render (report.overrides) shares no answers with any publish.
  const record = newRecord(report.overrides ? null : context.request.headers.get('x-publish-id'));
  if (report.overrides) record.overrides = report.overrides;
  else if (report.since) record.since = report.since;
  // The page's language and its link maker: links are written for the page's language as it renders.
  context.locals.lang = pageLang(context.url.pathname);
  context.locals.href = hrefMaker(context.locals.lang);
  return renderContext.run(record, async () => {
    try {
      if (report.op === 'routes') return Response.json(await listRoutesSince(record.publishId, report.since));
      const response = await next();
      let body: Uint8Array[] = [new Uint8Array(await response.arrayBuffer())];
      // The bytes kept aside (laterMarkup: thousands of cards, made in the page's language) go in.
      if (record.later.length) body = withLater(new TextDecoder().decode(body[0]), record.later);
      if (!report.noPage) report.file ??= outputFile(context.url.pathname);
      if (context.locals.render) {
        // The renderer takes the bytes from the report: a page of many megabytes is not copied into
        // a Response as well.
        report.body = body;
        const headers = new Headers(response.headers);
        headers.delete('content-length');
        // An empty body, not none: Astro answers a 404 without a body with the 404 page.
        return new Response('', { status: response.status, statusText: response.statusText, headers });
      }
      return new Response(new Uint8Array(Buffer.concat(body)), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      report.error = (error as Error)?.message ?? String(error);
      throw error;
    } finally {
      // A page answering 404 is rendered again as the 404 page, through here again with the same report.
      report.deps = [...new Set([...(report.deps ?? []), ...record.deps])].sort();
      const files = new Map([...(report.files ?? []).map((f) => [f.file, f.source] as const), ...record.files]);
      report.files = [...files]
        .map(([file, source]) => ({ file, source }))
        .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    }
  });
});

/** The dev server has no export step to publish image variants: it answers them from the cache folder. */
async function devVariant(pathname: string): Promise<Response> {
  const { readFile } = await import('node:fs/promises');
  try {
    const bytes = await readFile(`${cacheFolder()}/${pathname.slice('/_astro/'.length)}`);
    return new Response(new Uint8Array(bytes), { headers: { 'content-type': 'image/webp' } });
  } catch {
    return new Response(null, { status: 404 });
  }
}
