// The Node flags of the product's processes, the one place they are set: infra/start.mjs starts the
// API and the builder with them, the builder its renderer; the Docker images' CMD lines repeat them
// (infra/test/compose.spec.mjs checks that they match).
export const NODE_FLAGS = Object.freeze({
  /** A small young generation: the API under GET /api/books load peaks at 157 MB with it, 196 MB without (target < 200 MB; infra/bench/api-books.mjs). */
  api: Object.freeze(['--max-semi-space-size=4']),
  /** V8 favouring size with a small young generation: builder + renderer at 4,000 books peak at 348 MB with them, 650 MB without (budget 350 MB; infra/bench/README.md). */
  builder: Object.freeze(['--max-semi-space-size=4', '--optimize-for-size']),
});
