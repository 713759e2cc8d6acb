// A real S3-compatible server on loopback for tests: s3rver (the S3 REST protocol over HTTP, objects
// kept in a temporary folder), started on a free port. Tests talk to it through the real AWS SDK
// (path-style addresses, signature v4) exactly as the API and the builder talk to AWS S3, R2 or MinIO.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import S3rver from 's3rver';

/** s3rver's fixed credentials: any SDK client must sign with these. */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';

/**
 * @param {{ buckets?: string[] }} [options]
 * @returns {Promise<{ endpoint: string, region: string, accessKeyId: string, secretAccessKey: string, directory: string, stop: () => Promise<void> }>}
 */
export async function startS3Server({ buckets = [] } = {}) {
  const directory = await mkdtemp(path.join(os.tmpdir(), 's3-test-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  atomicPuts(server.store);
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  let stopped = false;
  return {
    endpoint,
    region: 'us-east-1',
    accessKeyId: ACCESS_KEY_ID,
    secretAccessKey: SECRET_ACCESS_KEY,
    directory,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * s3rver writes an object's file in place, so a GET during its PUT is answered the bytes written so
 * far (200, their length): S3 never shows a half-written object, and the API relies on that (a
 * renderer keeps a variant it fetched for good). Here each PUT writes a temporary file (no
 * `._S3rver_object` suffix: never listed) and renames it into place once whole.
 * @param {any} store s3rver's FilesystemStore
 */
function atomicPuts(store) {
  store.putObject = async (object) => {
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    const tmp = `${objectPath}.${randomBytes(4).toString('hex')}.partial`;
    await mkdir(path.dirname(objectPath), { recursive: true });
    const md5 = createHash('md5');
    let size = 0;
    try {
      const content = Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content;
      await pipeline(
        content,
        async function* (chunks) {
          for await (const chunk of chunks) {
            md5.update(chunk);
            size += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(tmp),
      );
      const digest = md5.digest('hex');
      await store.putMetadata(object.bucket, object.key, object.metadata, digest);
      await rename(tmp, objectPath);
      return { size, md5: digest };
    } finally {
      await rm(tmp, { force: true });
    }
  };
}
