// Types of s3.mjs, for the API's TypeScript tests that share it.
export interface S3TestServer {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Where s3rver keeps the objects (removed by stop()). */
  directory: string;
  stop(): Promise<void>;
}
export function startS3Server(options?: { buckets?: string[] }): Promise<S3TestServer>;
