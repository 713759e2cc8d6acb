// How the product's Node processes are started, the one place it is set: infra/start.mjs starts the
// API and the builder with these flags (the builder starts its renderer processes with their own)
// and the builder with MALLOC_ENV, which its renderer processes inherit; the Docker images repeat
// them (infra/test/compose.spec.mjs checks that they match).
export const NODE_FLAGS = Object.freeze({
  /**
   * A small young generation: the API under GET /api/books load peaks at 157 MB with it, 196 MB without (target < 200 MB;
   * infra/bench/api-books.mjs). The old generation collected once it grew by half (V8 lets it grow up to 4× first): a
   * newsletter of 10,000 mails peaks at 194–220 MB with it, 341–357 MB without (goal ≤ 250 MB; infra/bench/newsletter.mjs).
   */
  api: Object.freeze(['--max-semi-space-size=4', '--heap-growing-percent=50']),
  /** V8 favouring size with a small young generation: builder + renderer at 4,000 books peak at 348–368 MB with them, 696 MB without (budget 350 MB then; infra/bench/README.md). */
  builder: Object.freeze(['--max-semi-space-size=4', '--optimize-for-size']),
  /**
   * The renderer processes (the builder starts them: infra/builder/renderers.mjs): a young generation large enough
   * for a page's garbage. With the builder's flags two of them rendered 16,059 routes (4,000 books) at 650–730
   * pages/s; without `--optimize-for-size` at 1,180–1,260, and with 32 MB semi-spaces at 1,310–1,560 pages/s, at
   * 450–540 MB for both (budget for builder + renderers: 700 MB).
   */
  renderer: Object.freeze(['--max-semi-space-size=32']),
});

/** glibc's allocator for the builder and its renderer (two arenas, large blocks mapped and given back): with it builder + renderer at 4,000 books peak at 301–305 MB, without it 348–368 MB (budget 350 MB; infra/bench/README.md). */
export const MALLOC_ENV = Object.freeze({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '65536', MALLOC_TRIM_THRESHOLD_: '131072' });
