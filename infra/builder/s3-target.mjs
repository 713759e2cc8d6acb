// The first DeployTarget (deploy.mjs): an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, B2),
// addressed by `DEPLOY_S3_URL` (s3://bucket/prefix?region=…&endpoint=…).

/** The AWS SDK, loaded on the first deploy: a builder that does not deploy never holds its ~35 MB. */
const s3sdk = () => import('@aws-sdk/client-s3');

/** S3's DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;

/** `s3://bucket/prefix?region=…&endpoint=…` → its parts; throws a sentence naming what is wrong. */
export function parseDeployUrl(value) {
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new Error('must be a URL like s3://bucket/prefix?region=us-east-1&endpoint=https://…');
  }
  if (url.protocol !== 's3:') throw new Error(`must start with s3:// (got ${url.protocol}//)`);
  const bucket = url.hostname;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error(`names no valid bucket (got "${bucket}")`);
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  const region = url.searchParams.get('region') || 'us-east-1';
  const endpoint = url.searchParams.get('endpoint') || null;
  if (endpoint) {
    try {
      if (!['http:', 'https:'].includes(new URL(endpoint).protocol)) throw new Error();
    } catch {
      throw new Error(`endpoint must be an http:// or https:// URL (got "${endpoint}")`);
    }
  }
  // Path-style addressing for custom endpoints (MinIO, R2, local servers); AWS uses virtual hosts.
  const style = url.searchParams.get('path_style') ?? url.searchParams.get('pathStyle');
  const pathStyle = style != null ? style !== 'false' : Boolean(endpoint);
  return { bucket, prefix: prefix ? `${prefix}/` : '', region, endpoint, pathStyle };
}

/**
 * A bucket as a DeployTarget: keys under `prefix`. `client`: an S3Client to use (tests); by default
 * one is made from `region`, `endpoint`, `pathStyle` and `credentials` on first use.
 * @implements {import('./deploy.mjs').DeployTarget}
 */
export class S3Target {
  constructor({ bucket, prefix = '', region, endpoint = null, pathStyle = false, credentials = null, client = null }) {
    this.options = { region, endpoint, pathStyle, credentials };
    this.bucket = bucket;
    this.prefix = prefix;
    this.client = client;
    /** A client made here is closed here; one given is its owner's. */
    this.ownsClient = !client;
    this.name = `s3://${bucket}/${prefix}`;
  }

  async get(key) {
    const { GetObjectCommand } = await s3sdk();
    try {
      const out = await (await this.s3()).send(new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }));
      return await out.Body.transformToString();
    } catch (error) {
      if (error?.name === 'NoSuchKey' || error?.$metadata?.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async put(key, body, { contentType, cacheControl, md5 = null }) {
    const { PutObjectCommand } = await s3sdk();
    await (
      await this.s3()
    ).send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.prefix + key,
        Body: body,
        ContentType: contentType,
        CacheControl: cacheControl,
        ...(md5 ? { ContentMD5: Buffer.from(md5, 'hex').toString('base64') } : {}),
      }),
    );
  }

  async delete(keys) {
    const { DeleteObjectsCommand } = await s3sdk();
    // In the order given, one batch after another (deploy.mjs orders pages before their assets).
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const objects = batch.map((key) => ({ Key: this.prefix + key }));
      const out = await (
        await this.s3()
      ).send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: objects, Quiet: true } }));
      const [first] = out.Errors ?? [];
      if (first)
        throw new Error(`The bucket refused to delete ${out.Errors.length} objects (${first.Key}: ${first.Code ?? first.Message})`);
    }
  }

  /** The client, made (with the SDK loaded) on first use. */
  async s3() {
    if (this.client) return this.client;
    const { S3Client } = await s3sdk();
    const { region, endpoint, pathStyle, credentials } = this.options;
    this.client = new S3Client({
      region,
      ...(endpoint ? { endpoint } : {}),
      forcePathStyle: pathStyle,
      ...(credentials ? { credentials } : {}),
      maxAttempts: 3,
      // As for uploads (admin-api's S3Storage): R2, B2 and older MinIO refuse the SDK's newer trailing checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return this.client;
  }

  close() {
    if (this.ownsClient) this.client?.destroy();
  }
}
