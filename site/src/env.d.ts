declare namespace App {
  interface Locals {
    /** Set by the renderer (site/render/worker.mjs) for each render it asks for. */
    render?: import('./lib/render-context').RenderReport;
  }
}
