declare namespace App {
  interface Locals {
    /** Set by the renderer (site/render/worker.mjs) for each render it asks for. */
    render?: import('./lib/render-context').RenderReport;
  }
}

declare namespace astroHTML.JSX {
  interface AstroClientDirectives {
    /** Hydrates the island when focus first enters it (src/lib/search/client-focus.ts). */
    'client:focus'?: boolean;
  }
}
