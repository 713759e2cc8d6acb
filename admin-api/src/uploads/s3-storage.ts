import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';

import type { StorageConfig } from '../config/storage-config.js';
import { FileStorage, type StoredFile } from './file-storage.js';
import { storedFileType } from './sniff.js';

export type S3StorageConfig = Extract<StorageConfig, { kind: 's3' }>;

/** What serving one object answers: the status, the headers to pass on, and the bytes (none for 304/416 or HEAD). */
export interface S3Answer {
  status: number;
  headers: Record<string, string>;
  body: Readable | null;
}

/** The Content-Type of an upload by its server-made extension (the extension itself came from the bytes). */
export const uploadContentType = (name: string) => storedFileType(name)?.mime ?? 'application/octet-stream';

/** The S3 client of a storage configuration (also used by the uploads:to-s3 command). */
export function s3Client(config: S3StorageConfig): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.accessKeyId && config.secretAccessKey
      ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
      : {}),
    // Checksums only where S3 requires them: R2, B2 and older MinIO refuse the newer trailing checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
}

const notFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound');

/**
 * Uploads in an S3-compatible bucket, under `prefix/`: `books/abc.jpg` is the key `prefix/books/abc.jpg`.
 * A PUT is atomic in S3 (an object is whole or absent), so nothing half-written is ever served.
 */
export class S3Storage extends FileStorage {
  readonly client: S3Client;

  constructor(readonly config: S3StorageConfig) {
    super();
    this.client = s3Client(config);
  }

  /** Lets the sockets go when the API stops. */
  onApplicationShutdown() {
    this.client.destroy();
  }

  /** Whether the bucket answers with these credentials: null when it does, else why not (logged at start). */
  async check(): Promise<string | null> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket }));
      return null;
    } catch (error) {
      const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
      if (status === 404) return `the bucket ${this.config.bucket} does not exist`;
      if (status === 403 || status === 401)
        return `access to the bucket ${this.config.bucket} is denied (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)`;
      return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
  }

  key(filePath: string): string {
    return this.config.prefix ? `${this.config.prefix}/${filePath}` : filePath;
  }

  /** A path under /uploads/ that may name a stored file: no dot-parts, no empty parts. */
  static safePath(filePath: string): boolean {
    return filePath.length > 0 && filePath.split('/').every((part) => part.length > 0 && !part.startsWith('.'));
  }

  async save(folder: string, name: string, data: Buffer): Promise<string> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.config.bucket,
        Key: this.key(`${folder}/${name}`),
        Body: data,
        ContentType: uploadContentType(name),
        CacheControl: 'public, max-age=31536000, immutable',
        ContentMD5: createHash('md5').update(data).digest('base64'),
      }),
    );
    return `/uploads/${folder}/${name}`;
  }

  async list(): Promise<StoredFile[]> {
    const files: StoredFile[] = [];
    const base = this.config.prefix ? `${this.config.prefix}/` : '';
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: base || undefined, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const rel = (object.Key ?? '').slice(base.length);
        if (S3Storage.safePath(rel)) files.push({ path: rel, size: object.Size ?? 0 });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async open(filePath: string): Promise<Readable | null> {
    if (!S3Storage.safePath(filePath)) return null;
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: this.key(filePath) }));
      return answer.Body as Readable;
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  async remove(filePath: string): Promise<void> {
    if (!S3Storage.safePath(filePath)) return;
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.key(filePath) }));
  }

  /** Size and ETag of a stored object, or null (the uploads:to-s3 command compares them). */
  async head(filePath: string): Promise<{ size: number; etag: string } | null> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.key(filePath) }));
      return { size: answer.ContentLength ?? 0, etag: (answer.ETag ?? '').replace(/"/g, '') };
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  /** Stores bytes at a path as they are (the copy command: the local files already passed the upload rules). */
  async put(filePath: string, data: Buffer): Promise<void> {
    const name = filePath.slice(filePath.lastIndexOf('/') + 1);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.config.bucket,
        Key: this.key(filePath),
        Body: data,
        ContentType: uploadContentType(name),
        CacheControl: 'public, max-age=31536000, immutable',
        ContentMD5: createHash('md5').update(data).digest('base64'),
      }),
    );
  }

  /**
   * One object as the API serves it at /uploads/…: Range (one range) and If-None-Match are passed to
   * the bucket, the answer's type, length, ETag and Last-Modified passed back. Null when there is none.
   */
  async serve(filePath: string, request: { head: boolean; range?: string; ifNoneMatch?: string }): Promise<S3Answer | null> {
    if (!S3Storage.safePath(filePath)) return null;
    const input = {
      Bucket: this.config.bucket,
      Key: this.key(filePath),
      ...(request.ifNoneMatch ? { IfNoneMatch: request.ifNoneMatch } : {}),
    };
    try {
      const range = request.range && /^bytes=\d*-\d*$/.test(request.range.trim()) ? request.range.trim() : undefined;
      const answer = request.head
        ? await this.client.send(new HeadObjectCommand(input))
        : await this.client.send(new GetObjectCommand({ ...input, ...(range ? { Range: range } : {}) }));
      const headers: Record<string, string> = {
        'Content-Type': uploadContentType(filePath),
        'Accept-Ranges': 'bytes',
      };
      if (answer.ContentLength !== undefined) headers['Content-Length'] = String(answer.ContentLength);
      if (answer.ETag) headers.ETag = answer.ETag;
      if (answer.LastModified) headers['Last-Modified'] = answer.LastModified.toUTCString();
      const contentRange = 'ContentRange' in answer ? answer.ContentRange : undefined;
      if (contentRange) headers['Content-Range'] = contentRange;
      const body = 'Body' in answer && answer.Body ? (answer.Body as Readable) : null;
      return { status: contentRange ? 206 : 200, headers, body };
    } catch (error) {
      if (notFound(error)) return null;
      if (error instanceof S3ServiceException) {
        const status = error.$metadata.httpStatusCode;
        if (status === 304) return { status: 304, headers: request.ifNoneMatch ? { ETag: request.ifNoneMatch } : {}, body: null };
        if (status === 416) {
          // As a file server answers a range past the end: the size, so the client can ask again.
          const head = await this.head(filePath);
          return head ? { status: 416, headers: { 'Content-Range': `bytes */${head.size}` }, body: null } : null;
        }
      }
      throw error;
    }
  }
}
