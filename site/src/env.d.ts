/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Set by the renderer (site/render/worker.mjs) for each render it asks for. */
    render?: import('./lib/render-context').RenderReport;
    /** The page's fixed language (under /ar/), or null on the specification's addresses (set by the middleware). */
    lang: import('@portfolio/contract/languages').Lang | null;
    /** A link as this page writes it (lib/lang.ts localHref): `href('/books')` is `/ar/books` on an Arabic page. */
    href: <T extends string | null | undefined>(path: T) => T;
  }
}
