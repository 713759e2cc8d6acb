// A real S3-compatible server on loopback for tests: s3rver (the S3 REST protocol over HTTP, objects
// kept in a temporary folder), started on a free port. Tests talk to it through the real AWS SDK
// (path-style addresses, signature v4) exactly as the API and the builder talk to AWS S3, R2 or MinIO.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

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
