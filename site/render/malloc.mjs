// How the renderer and the builder ask glibc's allocator to behave. glibc reads these variables when a
// process starts, so they are given to child processes: startRenderer sets them for the renderer,
// infra/start.mjs for the builder, and the builder's Docker image has them in its environment.
// - MALLOC_ARENA_MAX=2: otherwise each thread (libuv's file-system threads, libvips) gets an arena of
//   its own, each keeping what a full publish once used;
// - MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_: blocks of 64 KB and more (page bytes, file
//   buffers) are mapped and given back when freed, and free memory at the top of the heap is returned.
// Measured with 4,000 books over targeted publishes after a full one (infra/bench/publish.mjs): the
// builder's resident size 150–168 MB without them, 114–118 MB with them; publish times unchanged.
export const MALLOC_ENV = Object.freeze({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '65536', MALLOC_TRIM_THRESHOLD_: '131072' });

/** `env` with the allocator settings added where the operator set none. */
export function withMallocEnv(env) {
  const out = { ...env };
  for (const [name, value] of Object.entries(MALLOC_ENV)) out[name] ??= value;
  return out;
}
