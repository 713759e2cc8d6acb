// React islands rendered once per distinct props, not once per page. The header's islands (search,
// language switch, Admin) get the same props on every page (both languages' strings). Measured at
// 20,000 books, one process rendering a book page and its /ar/ page 2,000 times (farm-bench, 6
// runs in turn): 0.93 of the CPU without it (median; 0.84–1.07), start-up and the API's reads included.
//
// memoRenderer wraps @astrojs/react's server renderer (render/islands-server.mjs is the server
// entrypoint Astro loads; memoizedIslands() in astro.config.mjs points it there). An island's
// markup is a pure function of its props: none reads anything else while rendered on the server,
// and none calls useId (astro.config.mjs). Only plain props are remembered; an island with
// children or slots, or with a function, class instance or symbol among its props, is rendered
// every time. Each page numbers its islands itself (`prefix`), as @astrojs/react did.
import { fileURLToPath } from 'node:url';

/** Islands remembered at most (each up to MAX_KEY characters of props): the header's are a handful. */
const MAX_ENTRIES = 256;
const MAX_KEY = 16_384;

/**
 * The key of props that are plain data (JSON of objects, arrays and primitives), or null.
 * @param {Record<string, unknown>} props
 */
function plainKey(props) {
  let plain = true;
  const key = JSON.stringify(props, (_name, value) => {
    if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint' || value === undefined) plain = false;
    else if (value && typeof value === 'object' && !Array.isArray(value)) {
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) plain = false;
    }
    return value;
  });
  return plain && key.length <= MAX_KEY ? key : null;
}

/**
 * @template {{ renderToStaticMarkup: (...args: any[]) => Promise<{ html: string, attrs?: Record<string, unknown> }> }} R
 * @param {R} renderer  @astrojs/react's server renderer (its default export)
 * @returns {R}
 */
export function memoRenderer(renderer) {
  /** @type {Map<unknown, Map<string, { html: string, attrs: Record<string, unknown> }>>} */
  const byComponent = new Map();
  let entries = 0;
  /**
   * Each page's islands numbered in order (`prefix`: r0, r1 …, the identifierPrefix React would be
   * given on hydration; islands are rendered with renderToString, which takes none, and no island
   * calls useId), the same for a page however often it is rendered.
   */
  const counters = new WeakMap();
  const nextPrefix = (result) => {
    const n = counters.get(result) ?? 0;
    counters.set(result, n + 1);
    return `r${n}`;
  };
  return {
    ...renderer,
    async renderToStaticMarkup(Component, props, slots, metadata) {
      const result = this?.result;
      const hasSlots = slots && Object.keys(slots).some((name) => slots[name] != null);
      const key = result && !hasSlots && props.children == null ? plainKey(props) : null;
      // Every island of a page takes its number here, remembered or not, so no two share one.
      const prefix = result ? nextPrefix(result) : undefined;
      if (key === null) {
        const rendered = await renderer.renderToStaticMarkup.call(this, Component, props, slots, metadata);
        return prefix ? { html: rendered.html, attrs: { ...rendered.attrs, prefix } } : rendered;
      }
      const hit = byComponent.get(Component)?.get(key);
      if (hit) return { html: hit.html, attrs: { ...hit.attrs, prefix } };
      const rendered = await renderer.renderToStaticMarkup.call(this, Component, props, slots, metadata);
      if (entries >= MAX_ENTRIES) {
        byComponent.clear();
        entries = 0;
      }
      let forComponent = byComponent.get(Component);
      if (!forComponent) byComponent.set(Component, (forComponent = new Map()));
      forComponent.set(key, { html: rendered.html, attrs: { ...rendered.attrs } });
      entries++;
      return { html: rendered.html, attrs: { ...rendered.attrs, prefix } };
    },
  };
}

/**
 * The @astrojs/react integration with its server renderer memoized (render/islands-server.mjs).
 * @param {import('astro').AstroIntegration} integration  react({ … })
 * @returns {import('astro').AstroIntegration}
 */
export function memoizedIslands(integration) {
  const setup = integration.hooks['astro:config:setup'];
  return {
    ...integration,
    hooks: {
      ...integration.hooks,
      'astro:config:setup': (options) =>
        setup?.({
          ...options,
          addRenderer: (renderer) =>
            options.addRenderer(
              renderer.serverEntrypoint === '@astrojs/react/server.js'
                ? { ...renderer, serverEntrypoint: fileURLToPath(new URL('./islands-server.mjs', import.meta.url)) }
                : renderer,
            ),
        }),
    },
  };
}
