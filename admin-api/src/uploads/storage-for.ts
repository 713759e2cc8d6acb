import path from 'node:path';

import type { StorageConfig } from '../config/storage-config.js';
import { describeStorage, type FileStorage, LocalDiskStorage } from './file-storage.js';

/** The storage of uploads a configuration names: the local folder, or the S3 bucket of STORAGE_URL. */
export async function storageFor(
  config: { varDir: string; storage?: StorageConfig },
  options: { warn?: (message: string) => void } = {},
): Promise<FileStorage> {
  if (config.storage?.kind === 's3') {
    // Loaded only when configured: the AWS SDK is large and the default needs none of it.
    const { S3Storage } = await import('./s3-storage.js');
    const storage = new S3Storage(config.storage);
    // Not waited for: a bucket that is briefly away must not stop the API (uploads then fail with a 500).
    if (options.warn) {
      const warn = options.warn;
      void storage.check().then((problem) => problem && warn(`Uploads cannot reach ${describeStorage(config.storage!)}: ${problem}`));
    }
    return storage;
  }
  return new LocalDiskStorage(config.storage?.dir ?? path.join(config.varDir, 'uploads'));
}
