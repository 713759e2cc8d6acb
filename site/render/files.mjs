// File helpers shared by the site's export (renderer.mjs) and the builder's targeted publish
// (infra/builder/site-publish.mjs), which write into the same kind of site folder.
import { copyFile, link } from 'node:fs/promises';

import pLimit from 'p-limit';

/** A hard link where the source and the site share a file system; a copy elsewhere. An existing `dest` is kept. */
export async function linkOrCopy(source, dest) {
  if (!source) throw new Error(`No source for ${dest}.`);
  try {
    await link(source, dest);
  } catch (error) {
    if (error.code === 'EEXIST') return;
    if (error.code !== 'EXDEV' && error.code !== 'EPERM' && error.code !== 'ENOTSUP') throw error;
    await copyFile(source, dest);
  }
}

/**
 * `work` on every item, at most `limit` at once (p-limit); after a failure no new item starts, the
 * ones running finish, and the first error is thrown.
 * @template T
 * @param {T[]} items
 * @param {number} limit
 * @param {(item: T) => Promise<unknown>} work
 */
export async function eachLimited(items, limit, work) {
  const run = pLimit(Math.max(1, limit));
  let failed = null;
  const one = async (item) => {
    if (failed) return;
    try {
      await work(item);
    } catch (error) {
      failed ??= error;
    }
  };
  await Promise.all(items.map((item) => run(one, item)));
  if (failed) throw failed;
}
