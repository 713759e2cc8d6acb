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

/** @type {((pad: number) => number) | null | undefined} malloc_trim, once loaded (null: not available here) */
let mallocTrim;

/**
 * Gives the allocator's free memory back to the system. By itself glibc returns only free memory at
 * the top of its heap; free blocks between blocks still in use stay resident. After a burst of
 * publishes (1,500 books added to a site of 20,000) the builder's heap was 84 MB, 72 MB of it free:
 * malloc_trim(0) releases those pages (RssAnon 135 → 62 MB, about 20 ms). Node has no binding for
 * it; koffi (an FFI with prebuilt binaries, no compiling) calls it. Elsewhere (not glibc, koffi
 * missing) it does nothing and answers false.
 */
export async function trimMalloc() {
  if (mallocTrim === undefined) mallocTrim = await loadMallocTrim();
  if (!mallocTrim) return false;
  mallocTrim(0);
  return true;
}

async function loadMallocTrim() {
  if (process.platform !== 'linux') return null;
  try {
    const { default: koffi } = await import('koffi');
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
  } catch {
    return null;
  }
}
