import path from 'node:path';

import type { EnvReader } from '@portfolio/contract/env';

/**
 * Where uploads live: `$VAR_DIR/uploads` on local disk (the default), or an S3-compatible bucket
 * (AWS S3, Cloudflare R2, MinIO, Backblaze B2) when STORAGE_URL=s3://bucket/prefix?… is set.
 */
export type StorageConfig =
  | { kind: 'local'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      /** Key prefix without slashes at either end ('' for the bucket's root). */
      prefix: string;
      region: string;
      /** Another service than AWS S3 (R2, MinIO, B2): its endpoint URL. */
      endpoint: string | null;
      /** Path-style addresses (endpoint/bucket/key): on by default with an endpoint, as MinIO needs. */
      forcePathStyle: boolean;
      /** Both set, or both null for the SDK's usual chain (AWS_* variables, instance role, profile). */
      accessKeyId: string | null;
      secretAccessKey: string | null;
      /** A public bucket or CDN base that serves the same keys: /uploads/… redirects there. */
      publicUrl: string | null;
    };

/** Secrets of the storage that may come from a file (NAME_FILE). */
export const STORAGE_FILE_VARIABLES = ['STORAGE_URL', 'S3_SECRET_ACCESS_KEY', 'S3_ACCESS_KEY_ID'];

const EXAMPLE = 's3://my-bucket/uploads?region=eu-central-1 (add &endpoint=https://… for R2, MinIO or B2)';
const KNOWN_PARAMS = new Set(['region', 'endpoint', 'path_style']);

export function readStorageConfig(reader: EnvReader, varDir: string): StorageConfig {
  const { problems } = reader;
  const rawPublic = reader.str('UPLOADS_PUBLIC_URL');
  let publicUrl: string | null = null;
  if (rawPublic) {
    try {
      const u = new URL(rawPublic);
      if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error();
      publicUrl = rawPublic.replace(/\/+$/, '');
    } catch {
      problems.push(`UPLOADS_PUBLIC_URL must be an http(s) address, e.g. https://cdn.example.com/uploads (got "${rawPublic}")`);
    }
  }
  const raw = reader.str('STORAGE_URL');
  const accessKeyId = reader.str('S3_ACCESS_KEY_ID') ?? null;
  const secretAccessKey = reader.str('S3_SECRET_ACCESS_KEY') ?? null;
  if (!raw || raw === 'local') {
    if (accessKeyId || secretAccessKey)
      problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY need STORAGE_URL=s3://bucket/prefix?region=… as well');
    if (rawPublic) problems.push('UPLOADS_PUBLIC_URL needs STORAGE_URL=s3://… as well (local uploads are served by the API at /uploads/)');
    return { kind: 'local', dir: path.join(varDir, 'uploads') };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push(`STORAGE_URL must be local or an S3 address such as ${EXAMPLE} (got "${raw}")`);
    return { kind: 'local', dir: path.join(varDir, 'uploads') };
  }
  const fail = (why: string): StorageConfig => {
    problems.push(`STORAGE_URL ${why}, e.g. ${EXAMPLE}`);
    return { kind: 'local', dir: path.join(varDir, 'uploads') };
  };
  if (url.protocol !== 's3:') return fail(`must start with s3:// (got "${url.protocol}//")`);
  if (url.username || url.password)
    return fail('must not hold credentials (set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or their _FILE variants)');
  const bucket = url.hostname;
  // S3's bucket naming rules (lowercase letters, digits, dots and dashes, 3 to 63 characters).
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    return fail(`must name a bucket of 3 to 63 lowercase letters, digits, dots or dashes (got "${bucket}")`);
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((part) => part === '..' || part === '.')) return fail('must not have . or .. in its prefix');
  const unknown = [...url.searchParams.keys()].filter((k) => !KNOWN_PARAMS.has(k));
  if (unknown.length) return fail(`has unknown parameters (${unknown.join(', ')}); known: region, endpoint, path_style`);
  const region = url.searchParams.get('region') || reader.str('AWS_REGION') || reader.str('AWS_DEFAULT_REGION');
  if (!region) return fail('needs a region (?region=…, or AWS_REGION); R2 uses region=auto');
  const endpointRaw = url.searchParams.get('endpoint') || reader.str('S3_ENDPOINT') || null;
  let endpoint: string | null = null;
  if (endpointRaw) {
    try {
      const e = new URL(endpointRaw);
      if (e.protocol !== 'https:' && e.protocol !== 'http:') throw new Error();
      endpoint = endpointRaw.replace(/\/+$/, '');
    } catch {
      return fail(`has an endpoint that is not an http(s) address ("${endpointRaw}")`);
    }
  }
  const pathStyle = url.searchParams.get('path_style');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false')
    return fail(`path_style must be true or false (got "${pathStyle}")`);
  if (!!accessKeyId !== !!secretAccessKey)
    problems.push("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS SDK's usual credentials)");
  return {
    kind: 's3',
    bucket,
    prefix,
    region,
    endpoint,
    forcePathStyle: pathStyle === null ? endpoint !== null : pathStyle === 'true',
    accessKeyId,
    secretAccessKey,
    publicUrl,
  };
}
