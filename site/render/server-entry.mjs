// The server bundle's entry (see render/adapter.mjs): Astro's app, rendering one address at a time
// for the renderer process (render/worker.mjs). Pages are rendered whole, not streamed.
import { createApp } from 'astro/app/entrypoint';
import { setGetEnv } from 'astro/env/setup';

setGetEnv((key) => process.env[key]);
const app = createApp({ streaming: false });

/**
 * Renders one address. `locals` reach only a page that matches it: an address no page has is
 * answered with the 404 page, rendered without them.
 *
 * @param {string} path  `/books/3`
 * @param {Record<string, string>} headers
 * @param {object} locals
 * @returns {Promise<Response>}
 */
export async function render(path, headers, locals) {
  const request = new Request(new URL(path, 'http://renderer.invalid'), { headers });
  const routeData = app.match(request, true);
  return routeData ? app.render(request, { locals, routeData }) : app.render(request);
}
